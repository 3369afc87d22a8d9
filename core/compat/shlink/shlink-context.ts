import type { Context, MiddlewareHandler } from 'hono';
import type { Caller } from '../../management/owners/authenticate.js';
import { codeKeyOfSegment, decodeCodeSegment } from '../../redirect/resolve.js';
import { dayOf } from '../../rules/clicks.js';
import type { LinkletSettings } from '../../settings.js';
import type { ManagedLinkStore, OwnerScope } from '../../store/link-management-store.js';
import { inScope } from '../../store/link-management-store.js';
import type { Link } from '../../store/link-store.js';
import { isOurDomain } from './shlink-domain.js';
import { shortUrlNotFound } from './shlink-problem.js';

/** What the Shlink routes share. */
export interface ShlinkContext {
  store: ManagedLinkStore;
  settings: LinkletSettings;
  /** This server's one domain (the base URL's host), as Shlink clients name domains. */
  host: string;
  /** The handler's body limit (413), for bodies. */
  limitBody: MiddlewareHandler;
  /** The request's caller: a Shlink problem when it carries no key or a refused one. */
  callerOf(request: Request): Promise<Caller>;
}

/** A route's handler: the context is Hono's; the answer a Response. */
export type ShlinkHandler = (c: Context) => Promise<Response>;

/** Shlink's answers are per key: never kept by a shared cache. */
export const PRIVATE = { 'Cache-Control': 'no-store' } as const;

/** The `{shortCode}` segment of a path, as sent (percent-encoded). */
export function shortCodeSegmentOf(request: Request): string {
  return /\/short-urls\/([^/]+)/.exec(new URL(request.url).pathname)?.[1] ?? '';
}

/**
 * The link a path's `{shortCode}` names, in the caller's scope: a missing link and another
 * owner's are the same `short-url-not-found`, so existence never leaks. Shlink names a short URL
 * by its code and its `?domain=`, so a code asked for on another domain than Linklet's one is
 * not found either: a client that manages several servers must never change or delete this
 * server's link by a code it meant on another domain.
 */
export async function findShortUrl(context: ShlinkContext, request: Request, scope: OwnerScope): Promise<Link> {
  const segment = shortCodeSegmentOf(request);
  const shortCode = decodeCodeSegment(segment) ?? segment;
  const domain = new URL(request.url).searchParams.get('domain');
  if (!isOurDomain(domain, context.host)) throw shortUrlNotFound(shortCode, domain ?? undefined);
  const codeKey = codeKeyOfSegment(segment);
  const link = codeKey === undefined ? undefined : await context.store.findByCodeKey(codeKey);
  if (link === undefined || !inScope(link, scope)) throw shortUrlNotFound(shortCode);
  return link;
}

/** A link with its clicks read fresh from the store (a link read alone may not carry them). */
export async function withClicks(context: ShlinkContext, link: Link): Promise<Link> {
  const clicks = await context.store.clicksOf(link.codeKey, link.createdAt, dayOf(context.settings.now()) + 1);
  return { ...link, clicks: clicks.total };
}

/**
 * The bot visits counted for a link over all its days (Shlink's `visitsSummary.bots`): Linklet
 * counts them apart from its clicks, in the daily counts that outlive the visits themselves.
 */
export async function botsOf(context: ShlinkContext, link: Link): Promise<number> {
  const today = dayOf(context.settings.now());
  const { bots } = await context.store.visitTalliesOf(link.codeKey, link.createdAt, dayOf(link.createdAt), today);
  return bots;
}
