import type { Hono, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.js';
import { type CreatorCheck, requireCreator } from '../http/middleware/api-key.js';
import { notAllowed } from '../http/not-allowed.js';
import { LEGACY_API_PATH, SHORTEN_PATH } from '../http/paths.js';
import { sendAnswer } from '../http/send-answer.js';
import type { Dialect, ShortenAnswerer } from './shorten-answer.js';

export interface ShortenRoutesOptions {
  answerShorten: ShortenAnswerer;
  creatorOf: CreatorCheck;
  limitBody: MiddlewareHandler;
  /** The API description a GET of an endpoint answers, in that endpoint's dialect. */
  describe: (dialect: Dialect) => object;
}

const API_ALLOW = ['GET', 'HEAD', 'POST', 'OPTIONS'];

/**
 * The two create endpoints, `POST /api.php` (legacy) and `POST /api/v1/shorten`, and their
 * descriptions at GET. The key is checked before the body is read (a refused key costs no read).
 */
export function registerShortenRoutes(app: Hono<AppEnv>, options: ShortenRoutesOptions): void {
  const { answerShorten, limitBody, describe } = options;
  const requireKey = requireCreator(options.creatorOf);
  for (const [path, dialect] of [
    [LEGACY_API_PATH, 'legacy'],
    [SHORTEN_PATH, 'v1'],
  ] as const) {
    app.post(path, requireKey, limitBody, async (c) =>
      sendAnswer(c, await answerShorten(dialect, new Uint8Array(await c.req.raw.arrayBuffer()), c.get('creator'))),
    );
    app.get(path, (c) => c.json(describe(dialect)));
    app.all(path, notAllowed(API_ALLOW));
  }
}
