import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../env.js';
import { logLevelOf } from '../../http/error-answer.js';
import { invalid } from '../../http/errors.js';
import { notAllowed } from '../../http/not-allowed.js';
import { YOURLS_API_PATH } from '../../http/paths.js';
import { sendAnswer } from '../../http/send-answer.js';
import type { LinkletSettings } from '../../settings.js';
import type { ManagedLinkStore } from '../../store/link-management-store.js';
import { runYourlsAction } from './yourls-actions.js';
import { createYourlsAuthenticator, pleaseLogIn } from './yourls-auth.js';
import { yourlsFailure } from './yourls-failure.js';
import { formatOf, type YourlsFormat, yourlsAnswer } from './yourls-format.js';
import { queryParamsOf, readYourlsParams } from './yourls-params.js';

export interface YourlsRoutesOptions {
  store: ManagedLinkStore;
  settings: LinkletSettings;
  /** The handler's body limit (413) for a POST's form. */
  limitBody: MiddlewareHandler;
}

const ALLOW = ['GET', 'HEAD', 'POST', 'OPTIONS'];

const jsonpRefused = () =>
  invalid(
    'format=jsonp is not offered: a callback name written into a script would let any page inject one. Use format=json (CORS lets pages read it).',
  );

const headMakesNoLink = () => invalid('A HEAD request makes no link; send action=shorturl with GET or POST.');

/**
 * YOURLS's API at `/yourls-api.php`, GET or POST, for the clients that speak it (ShareX, n8n,
 * browser extensions): the actions of `yourls-api.php` on the caller's links, answered in the
 * asked format. A refusal is answered in that format too; a failure that must be logged (a 500,
 * a 503) is left to the handler's error answer, which writes YOURLS's shape in JSON.
 */
export function registerYourlsRoutes(app: Hono<AppEnv>, options: YourlsRoutesOptions): void {
  const { store, settings, limitBody } = options;
  const authenticate = createYourlsAuthenticator({ store, apiKey: settings.apiKey, now: settings.now });
  const context = { store, settings };
  const answer = async (c: Context<AppEnv>) => {
    const query = queryParamsOf(c.req.url);
    let format: YourlsFormat | 'jsonp' = formatOf(query);
    try {
      const params = await readYourlsParams(c.req.raw, query);
      format = formatOf(params);
      if (format === 'jsonp') throw jsonpRefused();
      // A HEAD is answered as its GET (Hono), but a link checker's HEAD must not make links.
      if (c.req.raw.method === 'HEAD' && params.get('action') === 'shorturl') throw headMakesNoLink();
      const caller = await authenticate(c.req.raw, params);
      // A server with API_KEY answers nobody without a key, as a private YOURLS does; an open one
      // lets anyone shorten, as its v1 API does (the actions that read links ask for a key).
      if (caller === undefined && settings.apiKey !== undefined) throw pleaseLogIn();
      return sendAnswer(c, yourlsAnswer(format, await runYourlsAction(params, caller, context)));
    } catch (error) {
      if (logLevelOf(error) !== undefined) throw error;
      return sendAnswer(c, yourlsAnswer(format === 'jsonp' ? 'json' : format, yourlsFailure(error)));
    }
  };
  app.get(YOURLS_API_PATH, answer);
  app.post(YOURLS_API_PATH, limitBody, answer);
  app.all(YOURLS_API_PATH, notAllowed(ALLOW));
}
