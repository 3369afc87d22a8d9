import type { ApiOperationSpec } from '../../api-docs/api-operation.js';
import { withMeaning } from '../../api-docs/operation-parts.js';
import { DEFAULT_EXPIRE_DURATION } from '../../rules/expiry.js';
import { MAX_LISTED_ROWS } from './import-report.js';

/** Export and import of the caller's links: served where the store keeps owners' links. */
export function portingOperations(): ApiOperationSpec[] {
  return [
    {
      method: 'GET',
      path: '/api/v1/links/export',
      operationId: 'exportLinks',
      tag: 'links',
      summary: 'Export your links',
      description:
        "The caller's links (every link for the administrator's key), newest first, streamed page by page: `?format=csv` (a UTF-8 byte order mark, then `code,short_url,original_url,created_at,expiration_date,status,clicks,title,tags`, tags as one comma-separated cell) or `?format=json` (the default: `{version: 1, exported_at, links}`). `POST /api/v1/links/import` reads either back.",
      auth: 'required',
      responses: {
        200: {
          description: 'The links, as an attachment (`Content-Disposition`).',
          schema: 'LinkExport',
          alternatives: {
            'text/csv': { type: 'string', description: 'The CSV export: a header row, then one link per row (CRLF).' },
          },
          headers: { 'Content-Disposition': '`attachment; filename="linklet-links-<date>.<format>"`.' },
        },
        400: withMeaning(400, ' Here: `format` is not `csv` or `json`.'),
      },
    },
    {
      method: 'POST',
      path: '/api/v1/links/import',
      operationId: 'importLinks',
      tag: 'links',
      summary: 'Import links',
      description: `A file exported by Linklet (CSV or JSON), Shlink (CSV), Dub (CSV), Sink (JSON), YOURLS (its yourls_url table as CSV) or Kutt (GET /api/v2/links JSON), recognised from its content. Each row is a create with the caller's key under the usual rules, its own code as custom_code; the expiry it gives, else \`?expire_duration=\` (default ${DEFAULT_EXPIRE_DURATION}); rows already expired are skipped, and an expiry more than a month away is cut to a month (the row's message says so). Every row is counted by its result (created, unchanged, conflict, invalid, skipped); \`results\` lists the first ${MAX_LISTED_ROWS} rows, then only rows not created, with a message each, and \`results_omitted\` counts the rest. Valid rows are kept whatever happens to the others. Where the server has rate limits, imports create at most its import budget of links a minute per owner: rows past it are skipped (saying so, with \`retry_after_seconds\`), and an import with none left is a 429.`,
      auth: 'required',
      requestBody: {
        schema: 'ImportFile',
        description: 'The export file as it was written, up to 10 MiB of UTF-8.',
        alternatives: {
          'text/csv': { type: 'string', description: 'A CSV export (`,`, `;` or tab; quoted fields; a BOM is fine).' },
        },
      },
      responses: {
        200: { description: 'The file was read; each row has its result.', schema: 'ImportReport' },
        400: withMeaning(
          400,
          ' Here also: a file in none of the formats (the message lists them), not UTF-8, or empty; a bad `expire_duration`.',
        ),
        413: withMeaning(413, ' An import file may be at most 10 MiB.'),
        503: { ...withMeaning(503), headers: { 'Retry-After': 'Seconds to wait before trying again.' } },
      },
    },
  ];
}
