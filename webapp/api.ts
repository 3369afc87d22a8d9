import { ApiError, UnreachableError } from '../client/api-errors.js';
import { t } from './i18n.js';

export { ApiError, UnreachableError };

/** The envelope every Linklet answer has. */
interface Envelope<T> {
  status?: string;
  message?: string;
  data?: T;
}

/**
 * Calls the Linklet API of the server that served this page. Paths are relative (`api/v1/…`), so
 * the app works under a BASE_URL with a path prefix. Resolves with `data` (and the message);
 * rejects with `ApiError` carrying the API's own message, shown to the user as is, or
 * `UnreachableError` when nothing answered.
 */
export async function callApi<T>(
  path: string,
  options: { method?: string; key?: string | undefined; body?: BodyInit; contentType?: string } = {},
): Promise<{ data: T; message: string }> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.key) headers['X-API-Key'] = options.key;
  if (options.body !== undefined) headers['Content-Type'] = options.contentType ?? 'application/json';
  let response: Response;
  try {
    response = await fetch(new URL(path, document.baseURI), {
      method: options.method ?? 'GET',
      headers,
      ...(options.body !== undefined && { body: options.body }),
    });
  } catch (error) {
    throw new UnreachableError(new URL('.', document.baseURI).href, error);
  }
  let envelope: Envelope<T>;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    throw new ApiError(response.status, `The server answered ${response.status} without a Linklet response.`);
  }
  if (!response.ok || envelope.status !== 'success') {
    throw new ApiError(response.status, envelope.message ?? `The server answered ${response.status}.`);
  }
  return { data: envelope.data as T, message: envelope.message ?? '' };
}

/** What a failure says to the user: the API's message, or that the server did not answer. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof UnreachableError) {
    return t('webUnreachable', [error.cause instanceof Error ? error.cause.message : String(error.cause)]);
  }
  return error instanceof Error ? error.message : String(error);
}

/** A link as `GET /api/v1/links` lists it; `clicks` may be missing on a server that does not count them. */
export interface LinkItem {
  code: string;
  short_url: string;
  original_url: string;
  created_at: string;
  expiration_date: string;
  status: 'active' | 'expired' | 'disabled';
  clicks?: number;
  updated_at: string;
  /** The short URL asks for a password (absent from servers before passwords). */
  password_protected?: boolean;
  /** The owner's name for the link, or null (absent from servers before titles). */
  title?: string | null;
  /** The owner's tags on the link (absent from servers before tags). */
  tags?: string[];
}

/** One link with its clicks per UTC day (`GET /api/v1/links/{code}`), when the server counts them. */
export interface LinkDetail extends LinkItem {
  clicks_by_day?: Array<{ day: string; clicks: number }>;
}

/** The path of one link in the management API: the code percent-encoded (Hangul included). */
export const linkPath = (code: string) => `api/v1/links/${encodeURIComponent(code)}`;
