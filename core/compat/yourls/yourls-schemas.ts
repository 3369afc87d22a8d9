import { ref, strictObject } from '../../api-docs/schema-parts.js';

// The JSON bodies of YOURLS's API as Linklet writes them, strict like every schema of the document.

const text = { type: 'string' };
const yourlsDate = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$' };
const succeeded = { statusCode: { const: '200' }, message: { const: 'success' } };
const totals = strictObject({
  total_links: { type: 'integer', minimum: 0 },
  total_clicks: { type: 'integer', minimum: 0 },
});

/** The schemas of `/yourls-api.php`'s answers, by name. */
export const yourlsSchemas = {
  YourlsLink: strictObject({
    shorturl: { type: 'string', format: 'uri' },
    url: text,
    title: text,
    timestamp: yourlsDate,
    ip: text,
    clicks: { type: 'integer', minimum: 0 },
  }),
  YourlsAnswer: {
    description: 'One action’s answer (`format=json`); XML has the same members under `<root>`.',
    anyOf: [
      strictObject({
        status: { const: 'success' },
        code: { const: '' },
        message: text,
        errorCode: { const: '' },
        statusCode: { const: '200' },
        url: strictObject({ keyword: text, url: text, title: text, date: yourlsDate, ip: text }),
        title: text,
        shorturl: { type: 'string', format: 'uri' },
      }),
      strictObject({
        keyword: text,
        shorturl: { type: 'string', format: 'uri' },
        longurl: text,
        title: text,
        ...succeeded,
      }),
      strictObject({ ...succeeded, link: ref('YourlsLink') }),
      strictObject(
        {
          links: {
            type: 'object',
            patternProperties: { '^link_[1-9]\\d*$': ref('YourlsLink') },
            additionalProperties: false,
          },
          stats: totals,
          ...succeeded,
        },
        ['links'],
      ),
      strictObject({ 'db-stats': totals, ...succeeded }),
      strictObject({ version: text }),
    ],
  },
  YourlsFailure: {
    description: 'A refusal as YOURLS writes it.',
    anyOf: [
      strictObject({
        status: { const: 'fail' },
        code: { type: 'string', pattern: '^error:' },
        message: { type: 'string', minLength: 1 },
        errorCode: { type: 'string', pattern: '^[45]\\d\\d$' },
        statusCode: { type: 'string', pattern: '^[45]\\d\\d$' },
      }),
      strictObject({ message: { type: 'string', pattern: '^Please log in' }, errorCode: { const: '403' } }),
      strictObject({ errorCode: { const: '400' }, message: { type: 'string', minLength: 1 } }),
      strictObject({ keyword: text, message: { const: 'Error: short URL not found' }, errorCode: { const: '404' } }),
      strictObject({ statusCode: { const: '404' }, message: { const: 'Error: short URL not found' } }),
    ],
  },
  YourlsFailureOrError: {
    description:
      'YOURLS’s refusal, or Linklet’s envelope where the HTTP parser refused the request before its path was known.',
    anyOf: [ref('YourlsFailure'), ref('Error')],
  },
};
