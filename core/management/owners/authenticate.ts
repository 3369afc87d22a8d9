import { LinkletError } from '../../http/errors.js';
import { apiKeyRequired, carriesApiKey } from '../../http/middleware/api-key.js';
import { arrivedAs } from '../../http/middleware/body-limit.js';
import { KEY_TOUCH_INTERVAL_MS, type LinkManagementStore, type OwnerScope } from '../../store/link-management-store.js';
import { hashApiKey, isOwnerKeyShaped, presentedKey } from './api-keys.js';

/** Who sent a request: the administrator (`API_KEY`) or an owner, by one of their keys. */
export type Caller = { admin: true; name: string } | { admin: false; name: string; ownerId: number; keyId: number };

export interface AuthenticatorOptions {
  store: LinkManagementStore;
  /** The administrator's key (`API_KEY`); unset, nobody is administrator over HTTP. */
  apiKey?: string;
  now: () => number;
}

/** The name `GET /api/v1/me` gives the administrator. */
export const ADMIN_NAME = 'admin';

const keyRefused = () =>
  new LinkletError(
    'unauthorized',
    'The API key is not valid (unknown or revoked); check it, or ask the administrator for a new one.',
  );

/**
 * Turns a request's key into its caller: undefined when it carries none, a 401 when it carries
 * one that is not the administrator's nor an unrevoked owner key. Owner keys are looked up by
 * their SHA-256 on every request (no cache), so a key revoked on any instance is refused by all
 * of them at once. `last_used_at` is written at most once a minute per key and process (and the
 * store skips the write if another process wrote it within the minute).
 */
export function createAuthenticator(options: AuthenticatorOptions) {
  const touched = new Map<number, number>();
  return async (headers: Headers): Promise<Caller | undefined> => {
    const key = presentedKey(headers);
    if (key === undefined) return undefined;
    if (options.apiKey !== undefined && carriesApiKey(key, null, options.apiKey))
      return { admin: true, name: ADMIN_NAME };
    if (!isOwnerKeyShaped(key)) throw keyRefused();
    const keyHash = await hashApiKey(key);
    const found = await options.store.findKeyByHash(keyHash);
    if (found === undefined) throw keyRefused();
    const now = options.now();
    if (now - (touched.get(found.id) ?? Number.NEGATIVE_INFINITY) >= KEY_TOUCH_INTERVAL_MS) {
      touched.set(found.id, now);
      options.store.touchKey(found.id, now).catch(() => touched.delete(found.id)); // tried again next time
    }
    return { admin: false, name: found.name, ownerId: found.ownerId, keyId: found.id };
  };
}

/**
 * `createAuthenticator`, answered once per request: a route may ask who is calling more than once
 * (the key is checked before a body is read, then used), and the key is hashed and looked up once.
 */
export function createCallerOf(options: AuthenticatorOptions) {
  const authenticate = createAuthenticator(options);
  const callers = new WeakMap<Request, Promise<Caller | undefined>>();
  return (request: Request): Promise<Caller | undefined> => {
    const arrived = arrivedAs(request);
    let caller = callers.get(arrived);
    if (caller === undefined) {
      caller = authenticate(request.headers);
      callers.set(arrived, caller);
    }
    return caller;
  };
}

/** The links a caller may see and change. */
export function scopeOf(caller: Caller): OwnerScope {
  return caller.admin ? { all: true } : { ownerId: caller.ownerId };
}

/** The caller, or the 401 of a request without a key. */
export function requireCaller(caller: Caller | undefined): Caller {
  if (caller === undefined) throw apiKeyRequired();
  return caller;
}

/** The administrator, or 401 (no key) / 403 (an owner's key). */
export function requireAdmin(caller: Caller | undefined, adminConfigured: boolean): Caller {
  if (requireCaller(caller).admin) return caller as Caller;
  throw new LinkletError(
    'forbidden',
    adminConfigured
      ? "Managing keys needs the administrator's key (API_KEY); an owner's key cannot."
      : 'Managing keys over HTTP needs API_KEY to be set on the server; or use the keys command (npm run keys).',
  );
}
