import { LinkletError } from '../../http/errors.js';
import { type Caller, createAuthenticator } from '../../management/owners/authenticate.js';
import type { LinkManagementStore } from '../../store/link-management-store.js';
import type { YourlsParams } from './yourls-params.js';

export interface YourlsAuthOptions {
  store: LinkManagementStore;
  apiKey: string | undefined;
  now: () => number;
}

// Every refusal begins as YOURLS's own does, so a client that looks for it still finds it.
const HOW = 'send a Linklet API key (an owner’s key or the administrator’s API_KEY) as signature=<key>.';

/** YOURLS's 403 "Please log in", saying what to send instead. */
export function pleaseLogIn(why = ''): LinkletError {
  return new LinkletError('unauthorized', `Please log in: ${why}${HOW}`);
}

const nonEmpty = (value: string | undefined): value is string => value !== undefined && value !== '';

/**
 * Who is calling, by YOURLS's `signature` taken as a Linklet API key (or `X-API-Key` /
 * `Authorization: Bearer`, as the v1 API reads them): undefined without a key, YOURLS's 403 for a
 * key that is not valid. YOURLS's time-limited signature (`timestamp` with an md5 of the secret)
 * and `username`/`password` cannot be checked, since Linklet keeps only hashes of its keys: they
 * are refused with a message that says what to send instead.
 */
export function createYourlsAuthenticator(options: YourlsAuthOptions) {
  const authenticate = createAuthenticator(options);
  return async (request: Request, params: YourlsParams): Promise<Caller | undefined> => {
    const signature = params.get('signature');
    if (nonEmpty(signature) && nonEmpty(params.get('timestamp'))) {
      throw pleaseLogIn('Linklet cannot check YOURLS’s time-limited signatures (timestamp); ');
    }
    const headers = new Headers(request.headers);
    if (nonEmpty(signature)) {
      headers.set('x-api-key', signature);
      headers.delete('authorization');
    } else if (nonEmpty(params.get('username')) && nonEmpty(params.get('password'))) {
      throw pleaseLogIn('Linklet has no YOURLS usernames and passwords; ');
    }
    try {
      return await authenticate(headers);
    } catch (error) {
      if (error instanceof LinkletError && error.kind === 'unauthorized') {
        throw pleaseLogIn('the key is not valid (unknown or revoked); check it, or ');
      }
      throw error;
    }
  };
}
