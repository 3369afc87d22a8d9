import { describe, expect, it } from 'vitest';
import { json, makeHandler } from './make-handler.js';

const ADMIN = 'admin-key-0123456789';
const headers = (type: string) => ({ 'X-API-Key': ADMIN, 'Content-Type': type });

/** Imports `body` as the administrator and answers the view of each code asked. */
async function importThenView(body: string, type: string, codes: string[]) {
  const app = makeHandler({ apiKey: ADMIN });
  const imported = await app.fetch('/api/v1/links/import', { method: 'POST', headers: headers(type), body });
  expect(imported.status).toBe(200);
  const views = [];
  for (const code of codes) {
    views.push((await json(await app.fetch(`/api/v1/links/${code}`, { headers: headers(type) }))).data);
  }
  return { app, views };
}

describe('titles and tags in imports and exports', () => {
  it("reads Shlink's CSV title and comma-separated tags, lower-casing tags and turning spaces into -", async () => {
    const csv = [
      'createdAt,domain,shortCode,shortUrl,longUrl,title,tags,visits',
      '2026-01-20T10:00:00+00:00,,promo,https://s.example/promo,https://example.com/p,Spring Sale,"Sales,Q1 plan",3',
      '2026-01-21T10:00:00+00:00,,bare,https://s.example/bare,https://example.com/b,,,0',
    ].join('\n');
    const { views } = await importThenView(csv, 'text/csv', ['promo', 'bare']);
    expect(views[0]).toMatchObject({ title: 'Spring Sale', tags: ['sales', 'q1-plan'] });
    expect(views[1]).toMatchObject({ title: null, tags: [] });
  });

  it("reads Dub's CSV Title and Tags columns", async () => {
    const csv = [
      'Short link,Destination URL,Title,Tags,Clicks,Created at',
      'https://dub.sh/launch,https://example.com/l,Launch page,"news,한글",5,2026-01-20T10:00:00.000Z',
    ].join('\n');
    const { views } = await importThenView(csv, 'text/csv', ['launch']);
    expect(views[0]).toMatchObject({ title: 'Launch page', tags: ['news', '한글'] });
  });

  it("takes Sink's comment as the title", async () => {
    const file = JSON.stringify({
      version: '1.0',
      exportedAt: '2026-01-30T00:00:00.000Z',
      links: [{ slug: 'sink1', url: 'https://example.com/s', comment: 'From Sink', createdAt: 1769000000 }],
    });
    const { views } = await importThenView(file, 'application/json', ['sink1']);
    expect(views[0]).toMatchObject({ title: 'From Sink', tags: [] });
  });

  it('cuts a long imported title to 200 characters without splitting an emoji, so it passes the title rule', async () => {
    const title = `${'a'.repeat(151)}${'😀'.repeat(60)}`;
    const csv = ['keyword,url,title,timestamp,ip,clicks', `long,https://example.com/l,${title},2026-01-20 10:00:00,,0`];
    const { app, views } = await importThenView(csv.join('\n'), 'text/csv', ['long']);
    const kept = views[0].title as string;
    expect(kept).toBe(`${'a'.repeat(151)}${'😀'.repeat(49)}`);
    expect(kept).not.toContain('\ufffd');
    const again = await app.fetch('/api/v1/links/long', {
      method: 'PATCH',
      headers: headers('application/json'),
      body: JSON.stringify({ title: kept }),
    });
    expect(again.status).toBe(200);
  });

  it('exports title and tags, and a Linklet export imports back with them', async () => {
    const app = makeHandler({ apiKey: ADMIN });
    const made = await app.post(
      '/api/v1/shorten',
      { original_url: 'https://example.com/x', custom_code: 'round', title: 'Round trip', tags: ['a', 'b'] },
      headers('application/json'),
    );
    expect(made.status).toBe(201);
    const csv = await (await app.fetch('/api/v1/links/export?format=csv', { headers: headers('text/csv') })).text();
    expect(csv).toContain(',Round trip,"a,b"\r\n');
    const exported = await json(await app.fetch('/api/v1/links/export?format=json', { headers: headers('x') }));
    expect(exported.links[0]).toMatchObject({ title: 'Round trip', tags: ['a', 'b'] });
    for (const [body, type] of [
      [csv, 'text/csv'],
      [JSON.stringify(exported), 'application/json'],
    ] as const) {
      const { views } = await importThenView(body, type, ['round']);
      expect(views[0]).toMatchObject({ title: 'Round trip', tags: ['a', 'b'] });
    }
  });
});
