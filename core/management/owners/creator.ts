import { carriesApiKey } from '../../http/middleware/api-key.js';
import type { LinkManagementStore } from '../../store/link-management-store.js';
import { createAuthenticator } from './authenticate.js';

export interface CreatorCheckOptions {
  apiKey: string | undefined;
  /** Without it (the extension's store) there are no owner keys: only `API_KEY` counts. */
  store: LinkManagementStore | undefined;
  now: () => number;
}

/**
 * Who may create, and who the link will belong to: `{ownerId}` for an owner's key, `{}` for the
 * administrator's or (on an open server) no key, `'refused'` for a missing key where `API_KEY` is
 * set. A key that is neither valid nor absent is a 401 (thrown) even on an open server, so a
 * client learns its key is wrong instead of making links that are nobody's.
 */
export function createCreatorCheck(options: CreatorCheckOptions) {
  const { apiKey, store } = options;
  const authenticate = store && createAuthenticator({ store, apiKey, now: options.now });
  return async (headers: Headers): Promise<{ ownerId?: number } | 'refused'> => {
    if (authenticate === undefined) {
      const allowed =
        apiKey === undefined || carriesApiKey(headers.get('x-api-key'), headers.get('authorization'), apiKey);
      return allowed ? {} : 'refused';
    }
    const caller = await authenticate(headers);
    if (caller === undefined) return apiKey === undefined ? {} : 'refused';
    return caller.admin ? {} : { ownerId: caller.ownerId };
  };
}
