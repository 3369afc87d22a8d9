import { describe, expect, it } from 'vitest';
import { json, makeHandler } from './make-handler.js';

const ADMIN = 'admin-key-0123456789';
const headers = (type: string) => ({ 'X-API-Key': ADMIN, 'Content-Type': type });

const RULES = [
  {
    target_url: 'https://example.com/android',
    conditions: [
      { type: 'device', value: 'android' },
      { type: 'query-param', key: 'utm_source', value: 'mail' },
    ],
  },
  { target_url: 'https://example.com/kr', conditions: [{ type: 'geolocation-country-code', value: 'KR' }] },
];

describe("rules and limits in Linklet's own JSON export and import", () => {
  it('exports every field and imports it back the same', async () => {
    const source = makeHandler({ apiKey: ADMIN });
    const made = await source.post(
      '/api/v1/shorten',
      {
        original_url: 'https://example.com/x',
        custom_code: 'round',
        redirect_rules: RULES,
        max_visits: 50,
        valid_since: '2026-02-01T00:00:00Z',
        forward_query: true,
      },
      headers('application/json'),
    );
    expect(made.status).toBe(201);
    await source.post(
      '/api/v1/shorten',
      { original_url: 'https://example.com/p', custom_code: 'plain' },
      headers('application/json'),
    );
    const exported = await json(await source.fetch('/api/v1/links/export?format=json', { headers: headers('x') }));
    const fields = {
      redirect_rules: RULES,
      max_visits: 50,
      valid_since: '2026-02-01T00:00:00.000Z',
      forward_query: true,
    };
    expect(exported.links.find((link: { code: string }) => link.code === 'round')).toMatchObject(fields);

    const target = makeHandler({ apiKey: ADMIN });
    const imported = await target.fetch('/api/v1/links/import', {
      method: 'POST',
      headers: headers('application/json'),
      body: JSON.stringify(exported),
    });
    expect(imported.status).toBe(200);
    const view = async (code: string) =>
      (await json(await target.fetch(`/api/v1/links/${code}`, { headers: headers('x') }))).data;
    expect(await view('round')).toMatchObject(fields);
    expect(await view('plain')).toMatchObject({
      redirect_rules: [],
      max_visits: null,
      valid_since: null,
      forward_query: false,
    });
    // The imported rules decide redirects as the source's did.
    const visit = await target.fetch('/round/?utm_source=mail', {
      headers: {
        'User-Agent':
          'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
      },
    });
    expect(visit.status).toBe(410); // not yet valid on the target's clock (2026-01-31)
  });

  it('reports a row whose rules break a rule as invalid, naming the field, and imports the others', async () => {
    const app = makeHandler({ apiKey: ADMIN });
    const file = JSON.stringify({
      version: 1,
      links: [
        { code: 'ok', original_url: 'https://example.com/ok', max_visits: 2 },
        {
          code: 'bad',
          original_url: 'https://example.com/bad',
          redirect_rules: [{ target_url: 'https://example.com/x', conditions: [] }],
        },
        { code: 'neg', original_url: 'https://example.com/neg', max_visits: -1 },
      ],
    });
    const answer = await json(
      await app.fetch('/api/v1/links/import', { method: 'POST', headers: headers('application/json'), body: file }),
    );
    const results = answer.data.results as Array<{ code: string; status: string; message?: string }>;
    expect(results.find((one) => one.code === 'bad')).toMatchObject({
      status: 'invalid',
      message: expect.stringMatching(
        /^redirect_rules\[0\]\.conditions must be a list of 1 to 10 conditions; it has 0\./,
      ),
    });
    expect(results.find((one) => one.code === 'neg')).toMatchObject({
      status: 'invalid',
      message: expect.stringMatching(/^max_visits must be a whole number of at least 1/),
    });
    const ok = await json(await app.fetch('/api/v1/links/ok', { headers: headers('x') }));
    expect(ok.data.max_visits).toBe(2);
  });
});
