import type { Hono } from 'hono';
import type { AppEnv } from '../env.js';
import { acceptPrefersHtml } from '../http/accept.js';
import { LinkletError } from '../http/errors.js';
import { notAllowed } from '../http/not-allowed.js';
import { HEALTH_PATH, OPENAPI_PATH } from '../http/paths.js';
import { SECURITY_HEADERS } from '../http/security-headers.js';
import { sendAnswer } from '../http/send-answer.js';
import { notFoundError } from '../redirect/resolve.js';
import type { LinkStore } from '../store/link-store.js';
import { FAVICON_PATH, faviconAnswer } from './favicon.js';
import { FAVICON_ICO, FAVICON_ICO_HEADERS, FAVICON_ICO_PATH } from './favicon-ico.js';
import { type WebAppFiles, webAppAsset, webAppPage } from './web-app.js';
import { WEB_APP_MANIFEST_PATH, WEB_APP_WORKER_PATH, webAppManifest, webAppWorker } from './web-app-shell.js';

export interface SiteRoutesOptions {
  store: LinkStore;
  /** The v1 API description (JSON clients at `/`). */
  description: object;
  openApi: object;
  /** The built web app: a browser gets it at `/`, its files under `/assets/`. Absent: `/` is JSON only. */
  webApp: WebAppFiles | undefined;
  /** More for `GET /health` to tell (e.g. where rate limits count, and whether that works). */
  healthDetails: (() => Record<string, unknown>) | undefined;
}

const READ_ALLOW = ['GET', 'HEAD'];
const STORE_DOWN_RETRY_SECONDS = 5;

/** The site around the links: the root (web app or description), its assets, the OpenAPI document, health. */
export function registerSiteRoutes(app: Hono<AppEnv>, options: SiteRoutesOptions): void {
  const { store, description, webApp } = options;
  app.get(OPENAPI_PATH, (c) => c.json(options.openApi));
  app.all(OPENAPI_PATH, notAllowed([...READ_ALLOW, 'OPTIONS']));

  app.get(HEALTH_PATH, async (c) => {
    try {
      await store.ping();
    } catch (error) {
      throw new LinkletError('unavailable', 'The link store is not answering.', {
        cause: error,
        retryAfterSeconds: STORE_DOWN_RETRY_SECONDS,
      });
    }
    return c.json({ status: 'ok', ...options.healthDetails?.() });
  });
  app.all(HEALTH_PATH, notAllowed(READ_ALLOW));

  app.get('/', (c) => {
    if (webApp && acceptPrefersHtml(c.req.header('accept'))) return sendAnswer(c, webAppPage(webApp));
    return c.json(description, 200, { Vary: 'Accept' });
  });
  app.all('/', notAllowed(READ_ALLOW));
  // Only GET (and HEAD): any other method on /assets/… stays the 404 of a path that is not a code.
  app.get('/assets/:file', (c) => {
    const answer = webApp && webAppAsset(webApp, c.req.param('file'));
    if (!answer) throw notFoundError();
    return c.body(answer.body, 200, answer.headers);
  });
  // What makes the web app installable; without a built web app, the 404 of a path that is not a code.
  for (const [path, answerOf] of [
    [WEB_APP_WORKER_PATH, webAppWorker],
    [WEB_APP_MANIFEST_PATH, webAppManifest],
  ] as const) {
    app.get(path, (c) => {
      const answer = webApp && answerOf(webApp);
      if (!answer) throw notFoundError();
      return sendAnswer(c, answer);
    });
  }
  app.get(FAVICON_PATH, (c) => sendAnswer(c, faviconAnswer()));
  app.all(FAVICON_PATH, notAllowed(READ_ALLOW));
  // What browsers and crawlers ask for unprompted: an icon, not the JSON 404 of an unknown code.
  app.get(FAVICON_ICO_PATH, (c) => c.body(FAVICON_ICO, 200, { ...FAVICON_ICO_HEADERS, ...SECURITY_HEADERS }));
  app.all(FAVICON_ICO_PATH, notAllowed(READ_ALLOW));
}
