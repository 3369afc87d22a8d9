import { RateLimiterMemory } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import { MAX_LISTED_ROWS } from '../../core/management/porting/import-links.js';
import { MAX_ENTRY_CHARS } from '../../core/management/porting/json-entries.js';
import { createImportRowBudget } from '../../server/http/import-row-budget.js';
import { DAY, json, makeHandler, START } from './make-handler.js';

// What keeps an import from holding codes for good, from answering without bound and from
// creating past the rate limits: the rules, in process (test/server/import-abuse.process.test.ts has the
// same over real HTTP).

const ADMIN = 'admin-key-0123456789';
const iso = (ms: number) => new Date(ms).toISOString();
/** The latest expiry a create may choose at START: 1month from Jan 31 is Feb 28. */
const LONGEST = Date.UTC(2026, 1, 28, 12);

function setUp(options: Parameters<typeof makeHandler>[0] = {}) {
  const app = makeHandler({ apiKey: ADMIN, ...options });
  const send = async (body: string, type = 'text/csv') => {
    const response = await app.fetch('/api/v1/links/import', {
      method: 'POST',
      headers: { 'X-API-Key': ADMIN, 'Content-Type': type },
      body,
    });
    return { response, body: await json(response) };
  };
  const imported = async (body: string, type = 'text/csv') => {
    const answer = await send(body, type);
    expect(answer.response.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
    return answer.body.data;
  };
  return { app, send, imported };
}

const csv = (rows: string[]) => `code,original_url,expiration_date\n${rows.join('\n')}\n`;

describe('imported expiries follow the create rules', () => {
  it('cuts an expiry further than a month to a month from now, says so, and frees the code then', async () => {
    const { app, imported } = setUp();
    const answer = await imported(
      csv([
        'forever,https://example.com/forever,9999-12-31T00:00:00Z',
        `soon,https://example.com/soon,${iso(START + 10 * DAY)}`,
        `edge,https://example.com/edge,${iso(LONGEST)}`,
        `past,https://example.com/past,${iso(START - DAY)}`,
      ]),
    );
    expect(answer).toMatchObject({ created: 3, skipped: 1 });
    expect(answer.results[0].message).toBe(
      `Created. Its expiry 9999-12-31T00:00:00.000Z was more than a month away, the longest a link lasts: it expires on ${iso(LONGEST)}.`,
    );
    expect(answer.results[1].message).toBe('Created.');
    expect(answer.results[2].message).toBe('Created.'); // exactly a month is allowed
    expect(answer.results[3]).toMatchObject({ status: 'skipped', message: expect.stringMatching(/expired on/) });
    const forever = await json(await app.fetch('/api/v1/links/forever', { headers: { 'X-API-Key': ADMIN } }));
    expect(forever.data.expiration_date).toBe(iso(LONGEST));
    app.clock.now = LONGEST;
    const again = await app.post(
      '/api/v1/shorten',
      { original_url: 'https://example.com/other', custom_code: 'forever' },
      { 'X-API-Key': ADMIN },
    );
    expect(again.status).toBe(201);
  });
});

describe('an import answer is bounded whatever the rows', () => {
  it('counts every invalid row but lists the first 1,000, and says how many more there are', async () => {
    const { imported } = setUp();
    const answer = await imported(`code,original_url\n${'x\n'.repeat(5000)}`);
    expect(answer).toMatchObject({ invalid: 5000, created: 0, results_omitted: 4000 });
    expect(answer.results).toHaveLength(MAX_LISTED_ROWS);
    expect(answer.results.map((result: { row: number }) => result.row)).toEqual(
      Array.from({ length: MAX_LISTED_ROWS }, (_, at) => at + 1),
    );
  });

  it('lists every row of the first 1,000, then only the rows not created; long codes and messages are cut', async () => {
    const { imported } = setUp();
    const rows = Array.from({ length: 3000 }, (_, at) => `c${at + 1},https://example.com/${at + 1}`);
    rows[1999] = `${'y'.repeat(20_000)},https://example.com/long`;
    rows[2499] = 'bad,javascript:alert(1)';
    const answer = await imported(`code,original_url\n${rows.join('\n')}\n`);
    expect(answer).toMatchObject({ created: 2998, invalid: 2, results_omitted: 1998 });
    expect(answer.results).toHaveLength(1002);
    expect(answer.results.slice(1000).map((result: { row: number }) => result.row)).toEqual([2000, 2500]);
    expect(answer.results[1000].code.length).toBeLessThanOrEqual(100);
    expect(answer.results[1000].message.length).toBeLessThanOrEqual(500);
  });

  it('reads a JSON array entry by entry: [{…},1,1,…] is one link and many invalid rows', async () => {
    const { imported } = setUp();
    const body = `[{"code":"one","original_url":"https://example.com/1"}${',1'.repeat(4000)}]`;
    const answer = await imported(body, 'application/json');
    expect(answer).toMatchObject({ format: 'linklet-json', created: 1, invalid: 4000, results_omitted: 3000 });
    expect(answer.results[1]).toMatchObject({ row: 2, status: 'invalid', message: 'This entry is not a JSON object.' });
  });

  it('refuses JSON broken anywhere before importing any row, and an oversized entry is an invalid row', async () => {
    const { app, send, imported } = setUp();
    const link = '{"code":"first","original_url":"https://example.com/1"}';
    const broken = await send(`[${link},{"code":"x","original_url":}]`, 'application/json');
    expect(broken.response.status).toBe(400);
    expect(broken.body.message).toMatch(/not valid JSON/);
    expect((await app.fetch('/api/v1/links/first', { headers: { 'X-API-Key': ADMIN } })).status).toBe(404);
    expect((await send(`{"links":[${link}]} x`, 'application/json')).response.status).toBe(400);

    const huge = `{"code":"huge","original_url":"https://example.com/${'a'.repeat(MAX_ENTRY_CHARS)}"}`;
    const answer = await imported(`{"version":1,"links":[${link},${huge}]}`, 'application/json');
    expect(answer).toMatchObject({ created: 1, invalid: 1 });
    expect(answer.results[1].message).toMatch(/^This entry is \d+ characters long/);
  });
});

describe('an import budget counts each created row', () => {
  const budgeted = (rowsPerMinute: number) =>
    setUp({
      importBudget: createImportRowBudget({
        limiter: new RateLimiterMemory({ points: rowsPerMinute, duration: 60 }),
        rowsPerMinute,
        ready: async () => {},
        onFailure: (error) => {
          throw error;
        },
      }),
    });
  const links = (from: number, count: number) =>
    `code,original_url\n${Array.from({ length: count }, (_, at) => `b${from + at},https://example.com/${from + at}`).join('\n')}\n`;

  it('creates up to the budget, reports the rest as not imported with when to retry, then answers 429', async () => {
    const { app, send, imported } = budgeted(300);
    expect(await imported(links(0, 200))).toMatchObject({ created: 200 });
    // The first 200 rows again cost nothing (unchanged); 100 more fit; the last 100 do not.
    const answer = await imported(links(0, 400));
    expect(answer).toMatchObject({ unchanged: 200, created: 100, skipped: 100 });
    expect(answer.retry_after_seconds).toBeGreaterThanOrEqual(1);
    expect(answer.results.at(-1)).toMatchObject({
      row: 400,
      status: 'skipped',
      message: expect.stringMatching(/^Not imported: imports may create 300 links a minute for each owner/),
    });
    // Nothing acknowledged is lost: row 300 is there, row 301 is not.
    expect((await app.fetch('/api/v1/links/b299', { headers: { 'X-API-Key': ADMIN } })).status).toBe(200);
    expect((await app.fetch('/api/v1/links/b300', { headers: { 'X-API-Key': ADMIN } })).status).toBe(404);
    const refused = await send(links(400, 10));
    expect(refused.response.status).toBe(429);
    expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.body.message).toMatch(/send the file again in \d+ s/);
  });
});
