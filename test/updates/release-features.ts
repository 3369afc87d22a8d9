import { type Answer, call } from './http-calls.js';

/** What an earlier release can do, asked of the running server rather than assumed per commit. */
export interface ReleaseFeatures {
  /** Owners and their keys (`POST /api/v1/keys`). */
  owners: boolean;
  /** The management API: list, view, patch, delete (`/api/v1/links`). */
  links: boolean;
  /** Click counts on links. */
  clicks: boolean;
  /** `PATCH /api/v1/links/{code}` with `disabled`. */
  disable: boolean;
  /** `DELETE /api/v1/links/{code}`. */
  remove: boolean;
  /** Visits and stats (`GET /api/v1/links/{code}/visits`). */
  visits: boolean;
  /** Titles and tags on v1 creates, shown on every link view. */
  labels: boolean;
  /** A password on v1 creates: the short URL asks for it (`password_protected` on views). */
  passwords: boolean;
}

/** A release with none of them: the first ones, links alone. */
export const NO_FEATURES: ReleaseFeatures = {
  owners: false,
  links: false,
  clicks: false,
  disable: false,
  remove: false,
  visits: false,
  labels: false,
  passwords: false,
};

/** An unknown API path answers 404 on every release; anything else means the route exists. */
const served = (answer: Answer) => answer.status !== 404 && answer.status !== 405;

/**
 * Probes a running server of an earlier release with the administrator's key. `probeCode` is a
 * link the caller made, so that a release with the management API shows its fields on it; the
 * disable and delete probes use their own throwaway links.
 */
export async function probeFeatures(origin: string, adminKey: string, probeCode: string): Promise<ReleaseFeatures> {
  const listing = await call(origin, 'GET', '/api/v1/links?limit=1', { key: adminKey });
  const links = listing.status === 200 && Array.isArray(listing.body?.data?.links);
  const keys = await call(origin, 'GET', '/api/v1/keys', { key: adminKey });
  const owners = keys.status === 200 && Array.isArray(keys.body?.data?.keys);
  if (!links) return { ...NO_FEATURES, owners };

  const view = await call(origin, 'GET', `/api/v1/links/${encodeURIComponent(probeCode)}`, { key: adminKey });
  const clicks = typeof view.body?.data?.clicks === 'number';
  const scratch = async () =>
    (
      await call(origin, 'POST', '/api/v1/shorten', {
        key: adminKey,
        body: { original_url: 'https://example.com/probe' },
      })
    ).body.data.code as string;
  const disabled = await call(origin, 'PATCH', `/api/v1/links/${await scratch()}`, {
    key: adminKey,
    body: { disabled: true },
  });
  const removed = await call(origin, 'DELETE', `/api/v1/links/${await scratch()}`, { key: adminKey });
  const visits = await call(origin, 'GET', `/api/v1/links/${encodeURIComponent(probeCode)}/visits`, { key: adminKey });
  return {
    owners,
    links,
    clicks,
    disable: served(disabled) && disabled.body?.data?.status === 'disabled',
    remove: served(removed) && removed.status === 200,
    visits: visits.status === 200 && Array.isArray(visits.body?.data?.visits),
    labels: 'title' in (view.body?.data ?? {}) && Array.isArray(view.body?.data?.tags),
    passwords: typeof view.body?.data?.password_protected === 'boolean',
  };
}
