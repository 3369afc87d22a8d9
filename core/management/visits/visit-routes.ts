import type { Env, Hono } from 'hono';
import { LinkletError } from '../../http/errors.js';
import { notAllowed } from '../../http/not-allowed.js';
import { codeKeyOfSegment, decodeCodeSegment } from '../../redirect/resolve.js';
import { formatIsoDate } from '../../rules/dates.js';
import { visitDetails } from '../../rules/visit-rows.js';
import { inScope } from '../../store/link-management-store.js';
import { readCursor, signCursor } from '../links/cursor.js';
import { type ManagementContext, PRIVATE, success } from '../management-context.js';
import { requireCaller, scopeOf } from '../owners/authenticate.js';
import { csvRecords } from '../porting/csv-cell.js';
import { parseStatsRange, parseVisitListParams } from './visit-params.js';
import { linkStatsOf, type StoredVisit } from './visits.js';

const VISITS_PATH = /^\/api\/v1\/links\/([^/]+)\/(?:stats|visits)$/;

/** One answer for a missing link and another owner's: existence never leaks. */
const noSuchLink = (segment: string) =>
  new LinkletError(
    'not_found',
    `There is no link with the code '${decodeCodeSegment(segment) ?? segment}' among yours.`,
  );

/** A visit as the API shows it. */
export const toVisitView = (visit: StoredVisit) => ({ at: formatIsoDate(visit.at), ...visitDetails(visit) });

export const VISIT_CSV_HEADER = ['at', 'referrer', 'country', 'browser', 'os', 'device', 'bot'];
const EXPORT_PAGE = 1000;

/**
 * `GET /api/v1/links/{code}/stats` and `GET /api/v1/links/{code}/visits`: where a link's clicks
 * come from, for its owner or the administrator (another's link is the same 404 as none).
 */
export function registerVisitRoutes<E extends Env>(app: Hono<E>, context: ManagementContext): void {
  const { store, now } = context;
  let secret: Promise<string> | undefined;
  const signingSecret = () => {
    secret ??= store.signingSecret().catch((error: unknown) => {
      secret = undefined;
      throw error;
    });
    return secret;
  };
  /** The link the path names, in the caller's scope (else a 404). */
  const linkOf = async (request: Request) => {
    const scope = scopeOf(requireCaller(await context.callerOf(request)));
    const segment = VISITS_PATH.exec(new URL(request.url).pathname)?.[1] ?? '';
    const codeKey = codeKeyOfSegment(segment);
    if (codeKey === undefined) throw noSuchLink(segment);
    const link = await store.findByCodeKey(codeKey);
    if (link === undefined || !inScope(link, scope)) throw noSuchLink(segment);
    return link;
  };

  app.get('/api/v1/links/:code/stats', async (c) => {
    const link = await linkOf(c.req.raw);
    const { fromDay, toDay } = parseStatsRange(new URL(c.req.url).searchParams, now());
    const [clicks, tallies] = await Promise.all([
      store.clicksOf(link.codeKey, link.createdAt, fromDay),
      store.visitTalliesOf(link.codeKey, link.createdAt, fromDay, toDay),
    ]);
    const days = clicks.days.filter(({ day }) => day <= toDay);
    return c.json(success('Where the clicks come from.', linkStatsOf(days, tallies, fromDay, toDay)), 200, PRIVATE);
  });
  app.all('/api/v1/links/:code/stats', notAllowed(['GET', 'HEAD', 'OPTIONS']));

  app.get('/api/v1/links/:code/visits', async (c) => {
    const link = await linkOf(c.req.raw);
    const params = parseVisitListParams(new URL(c.req.url).searchParams);
    if (params.format === 'csv') {
      const at = now();
      const encoder = new TextEncoder();
      let before: { at: number; id: number } | undefined;
      let started = false;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const page = await store.listVisits(link.codeKey, link.createdAt, EXPORT_PAGE, before);
          const rows = page.map((visit) => {
            const view = toVisitView(visit);
            return [
              view.at,
              view.referrer ?? '',
              view.country ?? '',
              view.browser ?? '',
              view.os ?? '',
              view.device ?? '',
              String(view.bot),
            ];
          });
          controller.enqueue(encoder.encode(csvRecords(started ? rows : [VISIT_CSV_HEADER, ...rows])));
          started = true;
          const last = page.at(-1);
          if (page.length < EXPORT_PAGE || last === undefined) controller.close();
          else before = { at: last.at, id: last.id };
        },
      });
      return c.body(body, 200, {
        ...PRIVATE,
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="linklet-visits-${formatIsoDate(at).slice(0, 10)}.csv"`,
      });
    }
    const from =
      params.cursor === undefined ? undefined : await readCursor(await signingSecret(), params.cursor, 'visits');
    const before = from && { at: from.at, id: Number(from.codeKey) };
    const visits = await store.listVisits(link.codeKey, link.createdAt, params.limit + 1, before);
    const page = visits.slice(0, params.limit);
    const last = page.at(-1);
    const nextCursor =
      visits.length > params.limit && last
        ? await signCursor(await signingSecret(), { kind: 'visits', at: last.at, codeKey: String(last.id) })
        : null;
    return c.json(
      success(`${page.length} visits.`, { visits: page.map(toVisitView), next_cursor: nextCursor }),
      200,
      PRIVATE,
    );
  });
  // Deleted in one step by the store: visits, daily counts and the click total (see `deleteVisits`).
  app.delete('/api/v1/links/:code/visits', async (c) => {
    const scope = scopeOf(requireCaller(await context.callerOf(c.req.raw)));
    const segment = VISITS_PATH.exec(new URL(c.req.url).pathname)?.[1] ?? '';
    const codeKey = codeKeyOfSegment(segment);
    const deleted = codeKey === undefined ? undefined : await store.deleteVisits(codeKey, scope, now());
    if (deleted === undefined) throw noSuchLink(segment);
    const visits = `${deleted} ${deleted === 1 ? 'visit' : 'visits'}`;
    return c.json(
      success(`${visits} and the link's click counts were deleted.`, { deleted_visits: deleted }),
      200,
      PRIVATE,
    );
  });
  app.all('/api/v1/links/:code/visits', notAllowed(['GET', 'HEAD', 'DELETE', 'OPTIONS']));
}
