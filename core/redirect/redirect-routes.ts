import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.js';
import type { Answer } from '../http/answer.js';
import { notAllowed } from '../http/not-allowed.js';
import { codeSegmentOf } from '../http/paths.js';
import { audienceOf, sendAnswer } from '../http/send-answer.js';
import { asksNotToBeTracked } from '../management/visits/visits.js';
import type { PasswordTries } from '../passwords/password-tries.js';
import { isPasswordProtected } from '../passwords/protected-link.js';
import { createProtectedLinkAnswerer } from '../passwords/protected-link-routes.js';
import { type ClickRecorder, isClick } from '../rules/clicks.js';
import type { LinkletSettings } from '../settings.js';
import { answerShortUrl, notFoundError, resolveCode } from './resolve.js';

export interface RedirectRoutesOptions {
  settings: LinkletSettings;
  limitBody: MiddlewareHandler;
  /** Told of every click (see `isClick`), to count it; must not throw or wait. */
  onClick: ClickRecorder | undefined;
  /** When given, each click hands `onClick` the raw strings of its visit too (parsed later, off the redirect). */
  visits: { countryHeader?: string | undefined } | undefined;
  /** Where password tries are counted (`HandlerOptions.passwordTries`); this process's memory when absent. */
  passwordTries?: PasswordTries | undefined;
}

const READ_ALLOW = ['GET', 'HEAD'];

/** The code segment as sent: Hono's `c.req.path` is percent-decoded, and a code is decoded once, by `resolveCode`. */
const segmentOf = (c: Context) => codeSegmentOf(new URL(c.req.url).pathname);

/**
 * The short URLs, `/{code}` and `/{code}/`: registered last, as they take every path the other
 * features left. A protected link answers its password page (GET) and form (POST).
 */
export function registerRedirectRoutes(app: Hono<AppEnv>, options: RedirectRoutesOptions): void {
  const { settings, limitBody, onClick, visits } = options;
  const { store, timeZone } = settings;
  const answerProtected = createProtectedLinkAnswerer(settings, onClick, options.passwordTries);
  const visitOf = (c: Context<AppEnv>) =>
    visits && {
      referer: c.req.header('referer'),
      userAgent: c.req.header('user-agent'),
      country: visits.countryHeader === undefined ? undefined : c.req.header(visits.countryHeader),
      private: asksNotToBeTracked(c.req.header('dnt'), c.req.header('sec-gpc')),
    };
  const protectedRequest = (c: Context<AppEnv>, body?: string) => ({
    request: c.req.raw,
    client: c.env?.client,
    audience: audienceOf(c, timeZone),
    body,
    visit: visitOf(c),
  });

  app.post('*', async (c, next) => {
    const segment = segmentOf(c);
    const at = settings.now();
    const resolution = segment === undefined ? undefined : await resolveCode(segment, store, at);
    if (resolution?.state !== 'active' || !isPasswordProtected(resolution.link)) return next();
    let answer: Answer | undefined;
    await limitBody(c, async () => {
      answer = await answerProtected(resolution.link, at, protectedRequest(c, await c.req.text()));
    });
    return sendAnswer(c, answer as Answer);
  });

  app.get('*', async (c) => {
    const segment = segmentOf(c);
    if (segment === undefined) throw notFoundError();
    const at = settings.now();
    const resolution = await resolveCode(segment, store, at);
    if (resolution.state === 'active' && isPasswordProtected(resolution.link)) {
      return sendAnswer(c, await answerProtected(resolution.link, at, protectedRequest(c)));
    }
    const answer = answerShortUrl(resolution, at, audienceOf(c, timeZone), settings.redirectCacheSeconds);
    if (onClick && resolution.state === 'active') {
      if (isClick(c.req.method, answer.status, c.req.header('sec-purpose'), c.req.header('purpose'))) {
        onClick(resolution.link.codeKey, at, visitOf(c));
      }
    }
    return sendAnswer(c, answer);
  });
  app.all('*', (c) => {
    if (segmentOf(c) === undefined) throw notFoundError();
    return notAllowed(READ_ALLOW)(c);
  });
}
