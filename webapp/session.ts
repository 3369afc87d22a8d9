import { callApi } from './api.js';

const STORAGE_KEY = 'linklet.apiKey';

/** Who a key belongs to (`GET /api/v1/me`). */
export interface Owner {
  name: string;
  admin: boolean;
}

/** The API key kept in this browser since "Sign in"; undefined when signed out. */
export function storedKey(): string | undefined {
  try {
    return localStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    return undefined; // storage turned off: the key lives only as long as the page
  }
}

/**
 * Checks a key with the server and, if it is good, keeps it in local storage until "Sign out",
 * so the owner's links are there on the next visit. A refused key is not kept.
 */
export async function signIn(key: string): Promise<Owner> {
  const { data } = await callApi<Owner>('api/v1/me', { key });
  try {
    localStorage.setItem(STORAGE_KEY, key);
  } catch {}
  return data;
}

/** Forgets the key: nothing of the owner's stays in this browser. */
export function signOut(): void {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {}
}
