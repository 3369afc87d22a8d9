import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Answer } from '../../core/http/answer.js';
import { DEFAULT_REDIRECT_CACHE_SECONDS, redirectCacheControl } from '../../core/redirect/redirect-cache.js';
import { answerShortUrl, codeKeyOfSegment, locationOf, resolutionOf } from '../../core/redirect/resolve.js';
import { type LinkRules, visitorCountry } from '../../core/redirect/rules/link-rule-options.js';
import type { VisitorRequest } from '../../core/redirect/rules/rule-visitor.js';
import { decideRuledRedirect, type RuledOutcome, ruledAnswer } from '../../core/redirect/rules/ruled-redirect.js';
import { type ClickRecorder, isClick } from '../../core/rules/clicks.js';
import { RESERVED_CODES } from '../../core/rules/code.js';
import { hasRedirectOptions } from '../../core/store/link-rule-fields.js';
import type { Link, LinkStore } from '../../core/store/link-store.js';
import { rawVisitOf, type VisitCapture } from './raw-visit.js';
import { type RedirectHeaders, rawHeaderOf, redirectHeadersOf } from './redirect-headers.js';
import { requestHeader } from './request-header.js';
import type { RequestLog, RequestTrace } from './request-log.js';
import { writeAnswer, writeRedirect } from './write-answer.js';

/**
 * The request targets this path takes: `/{code}` or `/{code}/` (any query) where the code is
 * ASCII letters, digits, `_`, `-` and percent escapes (every code, percent-encoded, fits). Such a
 * path is exactly what `new URL` makes of it (no dot segments: `%2e` is left out, no character
 * it would escape), so the core handler would see the same segment.
 */
const FAST_TARGET = /^\/((?:[\w-]|%(?!2[eE])[0-9A-Fa-f]{2})+)\/?(?:\?|$)/;
// The Host values @hono/node-server takes as they are; it parses (and may refuse) the others.
export const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;

/** Who a 404 or 410 is written for: a browser's page in its language, or the JSON envelope. */
const audienceOf = (req: IncomingMessage, path: string, timeZone: string | undefined) => ({
  path,
  accept: req.headers.accept,
  acceptLanguage: requestHeader(req, 'accept-language'),
  timeZone,
});

export interface RedirectFastPathOptions {
  /** The handler's store; with `lookup` (the cache's), a cached link is answered without a promise. */
  store: LinkStore;
  now?: () => number;
  /** The handler's `redirectCacheSeconds` (`settingsOf`), so both send the same `Cache-Control`. */
  redirectCacheSeconds?: number;
  /** The handler's display time zone (`TIMEZONE`), so both pages show the same dates. */
  timeZone?: string;
  log: RequestLog;
  /** Told of every click (see `isClick`) this path answers, to count it. */
  onClick?: ClickRecorder;
  /** When given, each click hands `onClick` the raw strings of its visit too. */
  visits?: VisitCapture | undefined;
  /** Where a request goes that this path cannot answer itself (a store failure): the core handler. */
  fallback: (req: IncomingMessage, res: ServerResponse) => void;
  /** The handler's redirect rules and limits (`Linklet.linkRules`): one ledger of limited links' clicks for both. */
  linkRules?: LinkRules;
  /** The client's address behind trusted proxies, for `ip-address` rules (never kept); else the peer's. */
  clientOf?: (req: IncomingMessage) => string;
}

/**
 * `GET` and `HEAD` of a short URL without the web Request/Response adapter: the code is resolved
 * on the handler's own store (a cached link at once, without a promise) and the core's
 * `answerShortUrl` is written straight to the socket. A request whose first segment names one of
 * the core's reserved words (`api`, `health`, … however it is percent-encoded) is not a short URL:
 * it is left to the handler's routes, as is every unusual target. Returns whether it took the
 * request.
 */
export function createRedirectFastPath(options: RedirectFastPathOptions) {
  const { store, log, fallback, onClick, redirectCacheSeconds, timeZone, visits, linkRules, clientOf } = options;
  const now = options.now ?? Date.now;
  const countryHeader = visits?.countryHeader ?? linkRules?.countryHeader;
  const cacheSeconds = redirectCacheSeconds ?? DEFAULT_REDIRECT_CACHE_SECONDS;

  /** Writes an answer (a 302 from its location, or `answer`) and counts its click, as every answer here ends. */
  const finish = (
    req: IncomingMessage,
    res: ServerResponse,
    trace: RequestTrace,
    headers: RedirectHeaders,
    at: number,
    link: Link | undefined,
    answer: Answer | undefined,
    location: string,
    cacheControl: string,
  ) => {
    try {
      // A 302 names its id only to a client that sent one (see `writeRedirect`).
      if (answer === undefined)
        writeRedirect(res, location, cacheControl, headers.requestId === undefined ? undefined : trace.id);
      else writeAnswer(res, answer, trace.id);
    } catch (error) {
      log.failed(error, 'error', trace); // never expected; never a crash
      res.destroy();
      return;
    }
    const status = answer === undefined ? 302 : answer.status;
    log.answered(trace, status);
    // After the answer is on its way: counting never delays a redirect.
    if (onClick && link && isClick(req.method as string, status, headers.secPurpose, headers.purpose)) {
      onClick(link.codeKey, at, visits && rawVisitOf(headers, req, visits), link.ownerId);
    }
  };

  /**
   * An active link with rules, limits, a start or forwarding, decided by the core's
   * `decideRuledRedirect` as the handler decides it (same ledger of limited links' clicks).
   */
  const sendRuled = (
    req: IncomingMessage,
    res: ServerResponse,
    trace: RequestTrace,
    headers: RedirectHeaders,
    at: number,
    link: Link,
    rules: LinkRules,
  ) => {
    const target = req.url ?? '';
    const mark = target.indexOf('?');
    const address = () => (clientOf ? clientOf(req) : req.socket.remoteAddress);
    const visitor: VisitorRequest = {
      userAgent: headers.userAgent,
      acceptLanguage: rawHeaderOf(req.rawHeaders, 'accept-language'),
      query: mark === -1 ? '' : target.slice(mark + 1),
      country: () => visitorCountry(rules, headers.country, address()),
      address,
    };
    const click = isClick(req.method as string, 302, headers.secPurpose, headers.purpose);
    const write = (outcome: RuledOutcome) => {
      if ('gone' in outcome) {
        const answer = ruledAnswer(outcome, audienceOf(req, trace.path, timeZone));
        finish(req, res, trace, headers, at, link, answer, '', '');
      } else finish(req, res, trace, headers, at, link, undefined, outcome.location, outcome.cacheControl);
    };
    let decided: RuledOutcome | Promise<RuledOutcome>;
    try {
      decided = decideRuledRedirect(link, visitor, at, click, rules, cacheSeconds);
    } catch {
      fallback(req, res); // a broken stored URL, say: the handler answers 500 and logs it
      return;
    }
    if (decided instanceof Promise)
      decided.then(write, () => fallback(req, res)); // the handler answers 503
    else write(decided);
  };

  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const target = req.url ?? '';
    const segment = FAST_TARGET.exec(target)?.[1];
    if (segment === undefined) return false;
    const headers = redirectHeadersOf(req.rawHeaders, countryHeader);
    if (!PLAIN_HOST.test(headers.host ?? '')) return false;
    const key = codeKeyOfSegment(segment);
    if (key !== undefined && RESERVED_CODES.has(key)) return false;

    const trace = log.begin(req.method, target, headers.requestId);
    const at = now();
    const send = (link: Link | undefined) => {
      // A link with a password is the core's to answer (its page, tries, the hash read uncached):
      // the cache's flag, or the hash of a store read, says so.
      if (link !== undefined && (link.passwordProtected === true || link.passwordHash !== undefined)) {
        fallback(req, res);
        return;
      }
      // An active link's 302 is written from its location and Cache-Control, as `redirectAnswer`
      // would make it, without making the answer: it is every click's. The audience (language,
      // page or JSON) matters only to a 404 or 410.
      let location = '';
      let cacheControl = '';
      let answer: Answer | undefined;
      try {
        const resolution = resolutionOf(link, at);
        if (resolution.state === 'active') {
          if (linkRules && hasRedirectOptions(resolution.link)) {
            sendRuled(req, res, trace, headers, at, resolution.link, linkRules);
            return;
          }
          location = locationOf(resolution.link);
          cacheControl = redirectCacheControl(resolution.link.expiresAt, at, cacheSeconds);
        } else answer = answerShortUrl(resolution, at, audienceOf(req, trace.path, timeZone), redirectCacheSeconds);
      } catch {
        fallback(req, res); // a broken stored URL, say: the handler answers 500 and logs it
        return;
      }
      finish(req, res, trace, headers, at, link, answer, location, cacheControl);
    };
    if (key === undefined) {
      send(undefined);
      return true;
    }
    const found = store.lookup ? store.lookup(key) : store.findByCodeKey(key);
    if (found instanceof Promise)
      found.then(send, () => fallback(req, res)); // the handler answers 503 or 500
    else send(found);
    return true;
  };
}
