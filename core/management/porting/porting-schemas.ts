import { ISO_DATE } from '../../api-docs/schema-parts.js';
import { EXPORT_VERSION } from './export-links.js';
import { IMPORT_STATUSES, MAX_LISTED_ROWS } from './import-links.js';
import { IMPORT_FORMATS } from './import-row.js';

/** The bodies of export and import. */
export const portingSchemas = {
  LinkExport: {
    type: 'object',
    additionalProperties: false,
    required: ['version', 'exported_at', 'links'],
    properties: {
      version: { const: EXPORT_VERSION },
      exported_at: { type: 'string', pattern: ISO_DATE },
      links: { type: 'array', items: { $ref: '#/components/schemas/Link' } },
    },
  },
  ImportFile: {
    type: ['object', 'array'],
    description:
      "A JSON export: Linklet's `{version: 1, links}`, a Sink export page `{links}`, a Kutt listing `{data}`, or a bare array of their links.",
  },
  ImportReport: {
    type: 'object',
    additionalProperties: false,
    required: ['status', 'message', 'data'],
    properties: {
      status: { const: 'success' },
      message: { type: 'string' },
      data: {
        type: 'object',
        additionalProperties: false,
        required: ['format', ...IMPORT_STATUSES, 'results', 'results_omitted'],
        properties: {
          format: { enum: Object.keys(IMPORT_FORMATS) },
          ...Object.fromEntries(IMPORT_STATUSES.map((status) => [status, { type: 'integer', minimum: 0 }])),
          results: {
            type: 'array',
            maxItems: 2 * MAX_LISTED_ROWS,
            description: `Every row of the file's first ${MAX_LISTED_ROWS}, then only rows not created, up to ${MAX_LISTED_ROWS} of those in all; in file order.`,
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['row', 'code', 'status', 'message'],
              properties: {
                row: { type: 'integer', minimum: 1, description: "The link's place in the file, from 1." },
                code: { type: 'string' },
                status: { enum: [...IMPORT_STATUSES] },
                message: { type: 'string', minLength: 1 },
              },
            },
          },
          results_omitted: {
            type: 'integer',
            minimum: 0,
            description: 'How many rows are counted but not listed in `results`.',
          },
          retry_after_seconds: {
            type: 'integer',
            minimum: 1,
            description:
              "Present when rows were left out over the server's import budget (skipped, saying so): when to send the file again.",
          },
        },
      },
    },
  },
};
