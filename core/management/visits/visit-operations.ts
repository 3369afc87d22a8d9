import type { ApiOperationSpec } from '../../api-docs/api-operation.js';
import { error } from '../../api-docs/operation-parts.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../links/list-params.js';
import { codeParameter, keyRequired, noSuchLink, storeDown } from '../management-answers.js';
import { MAX_STATS_DAYS } from './visit-params.js';

/** Where a link's clicks come from: its stats and its visits (listed with the link operations). */
export function visitOperations(): ApiOperationSpec[] {
  return [
    {
      method: 'GET',
      path: '/api/v1/links/{code}/stats',
      operationId: 'getLinkStats',
      tag: 'links',
      summary: 'Where the clicks of one of your links come from',
      description:
        'Clicks on each UTC day of the range (bots are visits, not clicks) and their total, bot visits, and the top 10 referrer hosts, countries, browsers, operating systems and device types (biggest first, then `other`). A visit that sent `DNT: 1` or `Sec-GPC: 1` keeps only its time: it counts under `unknown`. Visits older than the retention are folded into daily counts, so older ranges still add up.',
      auth: 'required',
      pathParameters: [codeParameter],
      queryParameters: [
        {
          name: 'from',
          description: 'The first UTC day (YYYY-MM-DD), 29 days before `to` unless given.',
          schema: { type: 'string', format: 'date' },
        },
        {
          name: 'to',
          description: 'The last UTC day (YYYY-MM-DD), included; today unless given.',
          schema: { type: 'string', format: 'date' },
        },
      ],
      responses: {
        200: { description: 'The stats.', schema: 'LinkStatsAnswer' },
        400: error(
          `\`from\` or \`to\` is not a real day written YYYY-MM-DD, \`from\` is after \`to\`, or they are more than ${MAX_STATS_DAYS} days apart (the message says which).`,
        ),
        401: keyRequired,
        404: noSuchLink,
        503: storeDown,
      },
    },
    {
      method: 'GET',
      path: '/api/v1/links/{code}/visits',
      operationId: 'listLinkVisits',
      tag: 'links',
      summary: 'The visits of one of your links',
      description:
        'Kept visits, newest first, a page at a time (follow `next_cursor`): time, referrer host (`direct` when none), country, browser, OS, device type and whether a bot. Nothing that identifies a person: no address is ever stored, and a visit that sent `DNT: 1` or `Sec-GPC: 1` has only its time. `?format=csv` exports every kept visit instead.',
      auth: 'required',
      pathParameters: [codeParameter],
      queryParameters: [
        {
          name: 'limit',
          description: `Visits per page, ${DEFAULT_PAGE_SIZE} unless given.`,
          schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
        },
        {
          name: 'cursor',
          description: 'The `next_cursor` of the page before (signed by the server).',
          schema: { type: 'string' },
        },
        {
          name: 'format',
          description: '`csv`: every kept visit as an attachment (`at,referrer,country,browser,os,device,bot`).',
          schema: { enum: ['json', 'csv'], default: 'json' },
        },
      ],
      responses: {
        200: {
          description: 'A page of visits (or, with `format=csv`, all of them).',
          schema: 'VisitList',
          alternatives: {
            'text/csv': { type: 'string', description: 'A header row, then one visit per row (CRLF), newest first.' },
          },
        },
        400: error(
          '`limit` outside 1–100, a `cursor` the server did not make, or a `format` other than `json` or `csv`.',
        ),
        401: keyRequired,
        404: noSuchLink,
        503: storeDown,
      },
    },
    {
      method: 'DELETE',
      path: '/api/v1/links/{code}/visits',
      operationId: 'deleteLinkVisits',
      tag: 'links',
      summary: 'Delete the visits of one of your links',
      description:
        "Deletes the link's kept visits, its daily visit counts and its click counts (total and days) in one step; the link itself stays, and counts again from zero. Clicks this server counted before the request are written first and deleted with the rest; clicks another server instance counted in the last second before it may arrive after it and count as new.",
      auth: 'required',
      pathParameters: [codeParameter],
      responses: {
        200: { description: 'How many visits were deleted.', schema: 'VisitsDeletedAnswer' },
        401: keyRequired,
        404: noSuchLink,
        503: storeDown,
      },
    },
  ];
}
