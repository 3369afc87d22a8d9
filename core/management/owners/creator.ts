import type { Creator } from '../../env.js';
import { carriesApiKey } from '../../http/middleware/api-key.js';
import type { LinkManagementStore } from '../../store/link-management-store.js';
import { createAuthenticator } from './authenticate.js';

const KEYLESS: Creator = { keyless: true };

export interface CreatorCheckOptions {
  apiKey: string | undefined;
  /** Without it (the extension's store) there are no owner keys: only `API_KEY` counts. */
  store: LinkManagementStore | undefined;
  now: () => number;
}

/**
 * Who may create, and who the link will belong to: `{ownerId}` for an owner's key, `{}` for the
 * administrator's, `{keyless}` for no key on an open server, `'refused'` for a missing key where `API_KEY` is
 * set. A key that is neither valid nor absent is a 401 (thrown) even on an open server, so a
 * client learns its key is wrong instead of making links that are nobody's.
 */
export function createCreatorCheck(options: CreatorCheckOptions) {
  const { apiKey, store } = options;
  const authenticate = store && createAuthenticator({ store, apiKey, now: options.now });
  return async (headers: Headers): Promise<Creator | 'refused'> => {
    if (authenticate === undefined) {
      if (apiKey === undefined) return KEYLESS;
      return carriesApiKey(headers.get('x-api-key'), headers.get('authorization'), apiKey) ? {} : 'refused';
    }
    const caller = await authenticate(headers);
    if (caller === undefined) return apiKey === undefined ? KEYLESS : 'refused';
    return caller.admin ? {} : { ownerId: caller.ownerId };
  };
}
