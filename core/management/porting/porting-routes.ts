import type { Env, Hono } from 'hono';
import { invalid } from '../../http/errors.js';
import { notAllowed } from '../../http/not-allowed.js';
import { formatIsoDate } from '../../rules/dates.js';
import { DEFAULT_EXPIRE_DURATION, EXPIRE_DURATIONS, type ExpireDuration } from '../../rules/expiry.js';
import { type ManagementContext, PRIVATE, success } from '../management-context.js';
import { requireCaller, scopeOf } from '../owners/authenticate.js';
import { EXPORT_FORMATS, type ExportFormat, exportLinks } from './export-links.js';
import { retryAfterOf, rowBudgetOf } from './import-budget.js';
import { IMPORT_STATUSES, importLinks } from './import-links.js';
import { readImportFile } from './read-import-file.js';
import { createTurns } from './take-turns.js';

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

/** One query parameter of a closed set of values, or its default; any other value is a 400 naming it. */
function choice<T extends string>(query: URLSearchParams, name: string, values: readonly T[], fallback: T): T {
  const value = query.get(name);
  if (value === null || value === '') return fallback;
  if (!(values as readonly string[]).includes(value)) throw invalid(`${name} must be one of ${values.join(', ')}.`);
  return value as T;
}

/**
 * `GET /api/v1/links/export` and `POST /api/v1/links/import`: the caller's links out (all of them
 * for the administrator), and links from Linklet or another shortener in, each row a create with
 * the caller's key. Registered before `/api/v1/links/{code}`, so a link whose code is `export`
 * is read at `/api/v1/links/EXPORT` (codes ignore ASCII case; these paths do not).
 */
export function registerPortingRoutes<E extends Env>(app: Hono<E>, context: ManagementContext): void {
  const { store, baseUrl, now } = context;

  app.get('/api/v1/links/export', async (c) => {
    const scope = scopeOf(requireCaller(await context.callerOf(c.req.raw)));
    const format = choice(new URL(c.req.url).searchParams, 'format', EXPORT_FORMATS, 'json');
    const at = now();
    const request = c.req.raw;
    const requestId = (c.env as { requestId?: string } | undefined)?.requestId;
    const body = exportLinks({
      store,
      scope,
      baseUrl,
      now: at,
      format,
      onError: (error) => context.onStreamError?.(error, request, requestId),
    });
    return c.body(body, 200, {
      ...PRIVATE,
      'Content-Type': CONTENT_TYPES[format],
      'Content-Disposition': `attachment; filename="linklet-links-${formatIsoDate(at).slice(0, 10)}.${format}"`,
    });
  });
  app.all('/api/v1/links/export', notAllowed(['GET', 'HEAD', 'OPTIONS']));

  app.post('/api/v1/links/import', async (c, next) => {
    requireCaller(await context.callerOf(c.req.raw)); // the key is checked before the file is read
    return context.limitImportBody(c, next);
  });
  app.post('/api/v1/links/import', async (c) => {
    const caller = requireCaller(await context.callerOf(c.req.raw));
    const query = new URL(c.req.url).searchParams;
    const defaultDuration: ExpireDuration = choice(query, 'expire_duration', EXPIRE_DURATIONS, DEFAULT_EXPIRE_DURATION);
    const { importBudget } = context;
    const request = c.req.raw;
    // A 429 before any row is read; the body is still read first, so the answer is not lost to a reset.
    const budget =
      importBudget &&
      (await rowBudgetOf(importBudget, caller).catch(async (refusal: unknown) => {
        await request.arrayBuffer().catch(() => undefined);
        throw refusal;
      }));
    const turns = createTurns();
    // Decoded as it arrives rather than held whole as bytes too; Firefox has no Request.body.
    const file = await readImportFile(request.body ?? new Uint8Array(await request.arrayBuffer()), turns);
    const report = await importLinks(file.rows, {
      store,
      scope: scopeOf(caller),
      ownerId: caller.admin ? undefined : caller.ownerId,
      now: now(),
      urlRules: context.urlRules,
      defaultDuration,
      budget,
      turns,
    });
    const { results, resultsOmitted, ...counts } = report;
    const rows = IMPORT_STATUSES.reduce((sum, status) => sum + counts[status], 0);
    const retryAfter = budget?.leftOut() && importBudget ? await retryAfterOf(importBudget, caller) : undefined;
    const message =
      `${rows} rows read as ${file.format}: ${report.created} created, ${report.unchanged} unchanged, ${report.conflict} conflicts, ${report.invalid} invalid, ${report.skipped} skipped.` +
      (resultsOmitted > 0 ? ` ${results.length} rows are listed, ${resultsOmitted} more are not.` : '') +
      (retryAfter === undefined
        ? ''
        : ` Some rows were over this minute's import budget: send the file again in ${retryAfter} s.`);
    const data = {
      format: file.format,
      ...counts,
      results,
      results_omitted: resultsOmitted,
      ...(retryAfter === undefined ? {} : { retry_after_seconds: retryAfter }),
    };
    // Last, once nothing is left to wait for: what the adapter then schedules follows the answer.
    context.onImported?.(rows);
    return c.json(success(message, data), 200, PRIVATE);
  });
  app.all('/api/v1/links/import', notAllowed(['POST', 'OPTIONS']));
}
