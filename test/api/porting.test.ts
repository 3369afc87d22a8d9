import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXPORT_PAGE_SIZE } from '../../core/management/porting/export-links.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { DAY, json, makeHandler, START } from './make-handler.js';

const ADMIN = 'admin-key-0123456789';
const FIXTURES = new URL('../fixtures/import/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, FIXTURES));
const asKey = (key: string) => ({ 'X-API-Key': key });
const iso = (text: string) => new Date(text).toISOString();
/** The default expiry (1week) of a row that gives none, imported at START. */
const DEFAULT_EXPIRY = new Date(START + 7 * DAY).toISOString();
/** The latest expiry a create may choose at START (1month from Jan 31: Feb 28), so an import too. */
const LONGEST = iso('2026-02-28T12:00:00Z');

interface ImportAnswer {
  format: string;
  created: number;
  unchanged: number;
  conflict: number;
  invalid: number;
  skipped: number;
  results: Array<{ row: number; code: string; status: string; message: string }>;
}

/**
 * A handler with `API_KEY` set and two owners: alice imports, and bob already holds the code
 * `taken` (for the URL the fixtures give it, so only the owner differs).
 */
async function setUp() {
  const app = makeHandler({ apiKey: ADMIN });
  const makeKey = async (name: string) =>
    (await json(await app.post('/api/v1/keys', { name }, asKey(ADMIN)))).data.key as string;
  const alice = await makeKey('alice');
  const bob = await makeKey('bob');
  const taken = await app.post(
    '/api/v1/shorten',
    { original_url: 'https://example.com/taken', custom_code: 'taken' },
    asKey(bob),
  );
  expect(taken.status).toBe(201);
  const send = (body: BodyInit, key: string, type: string, query = '') =>
    app.fetch(`/api/v1/links/import${query}`, {
      method: 'POST',
      headers: { ...asKey(key), 'Content-Type': type },
      body,
    });
  const importAs = async (key: string, name: string, query = ''): Promise<ImportAnswer> => {
    const type = name.endsWith('.json') ? 'application/json' : 'text/csv';
    const response = await send(fixture(name), key, type, query);
    const body = await json(response);
    expect(response.status, JSON.stringify(body)).toBe(200);
    return body.data;
  };
  /** Alice's link as the management API shows it. */
  const linkOf = async (code: string) => {
    const response = await app.fetch(`/api/v1/links/${encodeURIComponent(code)}`, { headers: asKey(alice) });
    expect(response.status).toBe(200);
    return (await json(response)).data;
  };
  return { app, alice, bob, send, importAs, linkOf };
}

/** Each row's status and code, in order. */
const outcomes = (answer: ImportAnswer) => answer.results.map(({ status, code }) => `${status} ${code}`);
const messageOf = (answer: ImportAnswer, row: number) => answer.results.find((result) => result.row === row)?.message;

describe('POST /api/v1/links/import reads each format, row by row', () => {
  it("Linklet's CSV export: BOM, quoted commas, Hangul, disabled, expired, taken, bad and duplicate rows", async () => {
    const { alice, importAs, linkOf } = await setUp();
    const answer = await importAs(alice, 'linklet.csv');
    expect(answer.format).toBe('linklet-csv');
    expect(outcomes(answer)).toEqual([
      'created spring-sale',
      'created 한글',
      'invalid bad-url',
      'invalid my code',
      'conflict taken',
      'skipped old',
      'conflict Spring-Sale',
    ]);
    expect(answer).toMatchObject({ created: 2, unchanged: 0, conflict: 2, invalid: 2, skipped: 1 });
    expect(messageOf(answer, 3)).toBe('original_url must use http or https, not javascript.');
    expect(messageOf(answer, 4)).toMatch(/^code may only contain .*U\+0020/);
    expect(messageOf(answer, 5)).toBe(
      "Code 'taken' is in use by another active link; choose another code for this row and import it again.",
    );
    expect(messageOf(answer, 6)).toBe('It expired on 2025-11-08T09:00:00.000Z; expired links are not imported.');
    expect(messageOf(answer, 7)).toBe("Row 1 of this file already uses code 'Spring-Sale' for another URL.");
    // The file's creation time is kept; the link was changed (imported) now. Its expiry (June) is
    // further than a create may choose: cut to a month from now, and the row's result says so.
    expect(messageOf(answer, 1)).toBe(
      'Created. Its expiry 2026-06-30T00:00:00.000Z was more than a month away, the longest a link lasts: it expires on 2026-02-28T12:00:00.000Z.',
    );
    expect(await linkOf('spring-sale')).toMatchObject({
      original_url: 'https://shop.example/sale?items=a,b',
      created_at: iso('2025-12-01T09:00:00Z'),
      expiration_date: LONGEST,
      status: 'active',
      updated_at: new Date(START).toISOString(),
    });
    expect(messageOf(answer, 2)).toMatch(
      /^Created, disabled as it was in the file\. Its expiry 2026-03-01T00:00:00\.000Z/,
    );
    expect(await linkOf('한글')).toMatchObject({ status: 'disabled', expiration_date: LONGEST });
  });

  it("Linklet's JSON export, including a row whose date cannot be read", async () => {
    const { alice, importAs } = await setUp();
    const answer = await importAs(alice, 'linklet.json');
    expect(answer.format).toBe('linklet-json');
    expect(outcomes(answer)).toEqual([
      'created guide',
      'created paused',
      'skipped old',
      'invalid bad-url',
      'invalid two words',
      'conflict taken',
      'skipped GUIDE',
      'invalid when',
    ]);
    expect(messageOf(answer, 4)).toMatch(/^original_url must not contain whitespace/);
    expect(messageOf(answer, 7)).toBe('The same link as row 1 of this file.');
    expect(messageOf(answer, 8)).toMatch(/^created_at is not a date: "yesterday"/);
  });

  it("Shlink's CSV export: a title with quotes and a line break, percent-encoded codes, two domains", async () => {
    const { alice, importAs, linkOf } = await setUp();
    const answer = await importAs(alice, 'shlink.csv');
    expect(answer.format).toBe('shlink-csv');
    expect(outcomes(answer)).toEqual([
      'created guide',
      'invalid bad-url',
      'invalid with space',
      'conflict taken',
      'skipped guide',
      'created 뉴스',
    ]);
    expect(messageOf(answer, 2)).toBe('original_url must use http or https, not ftp.');
    // No expiry in Shlink's export: the default one; its creation time (+02:00) in UTC.
    expect(await linkOf('guide')).toMatchObject({
      created_at: iso('2025-10-01T08:00:00Z'),
      expiration_date: DEFAULT_EXPIRY,
    });
    expect(await linkOf('뉴스')).toMatchObject({ original_url: 'https://example.com/news' });
  });

  it("Dub's CSV export: the code from the short link's path, a nested key refused", async () => {
    const { alice, importAs, linkOf } = await setUp();
    const answer = await importAs(alice, 'dub.csv');
    expect(answer.format).toBe('dub-csv');
    expect(outcomes(answer)).toEqual([
      'created launch',
      'invalid bad',
      'invalid two words',
      'conflict taken',
      'skipped Launch',
      'invalid c/nested',
    ]);
    expect(messageOf(answer, 6)).toMatch(/^code may only contain .*'\/'/);
    expect(await linkOf('launch')).toMatchObject({
      original_url: 'https://example.com/launch?utm_source=dub',
      created_at: iso('2025-09-01T12:00:00Z'),
    });
  });

  it('a YOURLS yourls_url dump with ; as delimiter, and one without a header row', async () => {
    const { alice, importAs, linkOf } = await setUp();
    const answer = await importAs(alice, 'yourls.csv');
    expect(answer.format).toBe('yourls-csv');
    expect(outcomes(answer)).toEqual([
      'created ozh',
      'invalid bad',
      'invalid a b',
      'conflict taken',
      'conflict OZH',
      'invalid api',
    ]);
    expect(messageOf(answer, 6)).toBe(
      "custom_code 'api' is reserved by the service; choose another code.".replace('custom_code', 'code'),
    );
    expect(await linkOf('ozh')).toMatchObject({ created_at: iso('2024-03-01T10:00:00Z') });

    const bare = await importAs(alice, 'yourls-no-header.csv');
    expect(bare.format).toBe('yourls-csv');
    expect(outcomes(bare)).toEqual(['created blog', 'created news']);
    expect(await linkOf('news')).toMatchObject({ original_url: 'https://news.example/?a=1,2' });
  });

  it("Sink's JSON export: Unix-second dates, no expiry (the default asked for), a password skipped", async () => {
    const { alice, importAs, linkOf } = await setUp();
    const answer = await importAs(alice, 'sink.json', '?expire_duration=1month');
    expect(answer.format).toBe('sink-json');
    expect(outcomes(answer)).toEqual([
      'created sink',
      'created Forever',
      'skipped gone',
      'invalid bad-url',
      'invalid has space',
      'conflict taken',
      'skipped private',
      'skipped SINK',
    ]);
    expect(messageOf(answer, 7)).toMatch(/password-protected/);
    expect(await linkOf('sink')).toMatchObject({
      created_at: iso('2025-01-01T00:00:00Z'),
      expiration_date: LONGEST, // June in the file: at most a month, as for a create
    });
    // 1month from Jan 31 is Feb 28 (clamped), as for a create.
    expect(await linkOf('forever')).toMatchObject({ code: 'Forever', expiration_date: iso('2026-02-28T12:00:00Z') });
  });

  it("Kutt's GET /api/v2/links JSON: SQL and ISO expiries, banned as disabled, a password skipped", async () => {
    const { alice, importAs, linkOf } = await setUp();
    const answer = await importAs(alice, 'kutt.json');
    expect(answer.format).toBe('kutt-json');
    expect(outcomes(answer)).toEqual([
      'created kutt',
      'created soon',
      'created banned',
      'skipped expired',
      'invalid bad-url',
      'invalid a space',
      'skipped taken',
      'conflict taken',
      'conflict kutt',
    ]);
    expect(messageOf(answer, 5)).toBe('original_url must not contain user credentials (user@host).');
    expect(await linkOf('soon')).toMatchObject({ expiration_date: LONGEST }); // May in the file
    expect(await linkOf('banned')).toMatchObject({ status: 'disabled' });
  });
});

describe('importing again, and who the links belong to', () => {
  it('is idempotent: the same file again is all unchanged (or skipped, as before)', async () => {
    const { alice, importAs } = await setUp();
    await importAs(alice, 'kutt.json');
    const again = await importAs(alice, 'kutt.json');
    expect(again).toMatchObject({ created: 0, unchanged: 3 });
    expect(again.results[0]).toMatchObject({
      status: 'unchanged',
      message: 'Already yours with the same URL; left as it is.',
    });
  });

  it("gives the links to the key's owner: another owner sees none of them and gets conflicts", async () => {
    const { app, alice, bob, importAs } = await setUp();
    await importAs(alice, 'dub.csv');
    const bobs = await json(await app.fetch('/api/v1/links', { headers: asKey(bob) }));
    expect(bobs.data.links.map((link: { code: string }) => link.code)).toEqual(['taken']);
    const asBob = await importAs(bob, 'dub.csv');
    expect(asBob.results[0]).toMatchObject({ status: 'conflict', code: 'launch' });
    // The administrator sees every link, so alice's count as "already yours" for it.
    const asAdmin = await importAs(ADMIN, 'dub.csv');
    expect(asAdmin.results[0]).toMatchObject({ status: 'unchanged', code: 'launch' });
  });

  it("a code already the caller's for another URL is a conflict that says so", async () => {
    const { app, alice, importAs } = await setUp();
    await app.post('/api/v1/shorten', { original_url: 'https://example.com/mine', custom_code: 'ozh' }, asKey(alice));
    const answer = await importAs(alice, 'yourls.csv');
    expect(answer.results[0]).toMatchObject({
      status: 'conflict',
      message: "Code 'ozh' is already yours for another URL (https://example.com/mine).",
    });
  });
});

describe('what the adapter is told of an import', () => {
  it('how many rows each import read, whatever became of them, once it has read its file', async () => {
    const told: number[] = [];
    const app = makeHandler({ apiKey: ADMIN, onImported: (rows) => told.push(rows) });
    const importFile = (name: string) =>
      app.fetch('/api/v1/links/import', {
        method: 'POST',
        headers: { ...asKey(ADMIN), 'Content-Type': name.endsWith('.json') ? 'application/json' : 'text/csv' },
        body: fixture(name),
      });
    const first = await json(await importFile('linklet.json'));
    const { created, unchanged, conflict, invalid, skipped } = first.data;
    expect(told).toEqual([created + unchanged + conflict + invalid + skipped]);
    expect(told[0]).toBe(8);
    // A file refused whole read no rows: nothing to tell.
    const refused = await app.fetch('/api/v1/links/import', {
      method: 'POST',
      headers: { ...asKey(ADMIN), 'Content-Type': 'text/csv' },
      body: 'name,link\nx,https://example.com/\n',
    });
    expect(refused.status).toBe(400);
    expect(told).toHaveLength(1);
  });
});

describe('what an import refuses whole', () => {
  it('no key (401), a file in no known format (400 naming every format), not UTF-8, empty, too large (413)', async () => {
    const { app, alice, send } = await setUp();
    expect((await app.fetch('/api/v1/links/import', { method: 'POST', body: 'code,original_url\n' })).status).toBe(401);
    const unknown = await send('name,link\nx,https://example.com/\n', alice, 'text/csv');
    expect(unknown.status).toBe(400);
    const { message } = await json(unknown);
    for (const name of ['Linklet CSV', 'Linklet JSON', 'Shlink', 'Dub', 'Sink', 'YOURLS', 'Kutt']) {
      expect(message).toContain(name);
    }
    const notLinks = await send('{"items":[]}', alice, 'application/json');
    expect((await json(notLinks)).message).toMatch(/^The JSON is none of the formats Linklet imports: /);
    expect((await json(await send('{"links":', alice, 'application/json'))).message).toMatch(/not valid JSON/);
    const latin1 = await send(new Uint8Array([0x6b, 0x65, 0x79, 0xe9, 0x0a]), alice, 'text/csv');
    expect((await json(latin1)).message).toMatch(/not UTF-8/);
    expect((await json(await send(' \n', alice, 'text/csv'))).message).toMatch(/empty/);
    const expiry = await send('code,original_url\n', alice, 'text/csv', '?expire_duration=2h');
    expect((await json(expiry)).message).toBe('expire_duration must be one of 24h, 48h, 1week, 1month.');
    const huge = `code,original_url\n${'x'.repeat(10 * 1024 * 1024)}`;
    const tooLarge = await send(huge, alice, 'text/csv');
    expect(tooLarge.status).toBe(413);
    expect((await json(tooLarge)).message).toBe(`The request body must be at most ${10 * 1024 * 1024} bytes.`);
    expect((await app.fetch('/api/v1/links/import', { headers: asKey(alice) })).status).toBe(405);
  });

  it('a header row alone is an import of nothing', async () => {
    const { alice, send } = await setUp();
    const answer = await json(await send('\ufeffcode,short_url,original_url\r\n', alice, 'text/csv'));
    expect(answer.data).toEqual({
      format: 'linklet-csv',
      created: 0,
      unchanged: 0,
      conflict: 0,
      invalid: 0,
      skipped: 0,
      results: [],
      results_omitted: 0,
    });
  });
});

describe('GET /api/v1/links/export', () => {
  /** Alice's three links (one disabled, one expired) and bob's one. */
  async function withLinks() {
    const made = await setUp();
    const { app, alice } = made;
    const shorten = (code: string, url: string, extra: object = {}) =>
      app.post('/api/v1/shorten', { original_url: url, custom_code: code, ...extra }, asKey(alice));
    await shorten('first', 'https://example.com/a,"b"', { expire_duration: '24h' });
    app.clock.advance(1000);
    await shorten('둘째', 'https://example.com/2');
    app.clock.advance(1000);
    await shorten('third', 'https://example.com/3');
    await app.fetch('/api/v1/links/third', {
      method: 'PATCH',
      headers: { ...asKey(alice), 'Content-Type': 'application/json' },
      body: '{"disabled":true}',
    });
    app.clock.advance(DAY);
    return made;
  }
  const exportAs = (app: Awaited<ReturnType<typeof setUp>>['app'], key: string, format: string) =>
    app.fetch(`/api/v1/links/export?format=${format}`, { headers: asKey(key) });

  it("streams the caller's links as CSV: a BOM, the header, newest first, quoted where needed", async () => {
    const { app, alice } = await withLinks();
    const response = await exportAs(app, alice, 'csv');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="linklet-links-2026-02-01.csv"');
    const at = (seconds: number) => new Date(START + seconds * 1000).toISOString();
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // text() would drop it
    expect(new TextDecoder().decode(bytes)).toBe(
      'code,short_url,original_url,created_at,expiration_date,status,clicks,title,tags\r\n' +
        `third,https://sho.rt/third/,https://example.com/3,${at(2)},${new Date(START + 2000 + 7 * DAY).toISOString()},disabled,0,,\r\n` +
        `둘째,https://sho.rt/둘째/,https://example.com/2,${at(1)},${new Date(START + 1000 + 7 * DAY).toISOString()},active,0,,\r\n` +
        `first,https://sho.rt/first/,"https://example.com/a,""b""",${at(0)},${new Date(START + DAY).toISOString()},expired,0,,\r\n`,
    );
  });

  it('streams JSON: version, exported_at and the links as the management API shows them', async () => {
    const { app, alice, bob } = await withLinks();
    const body = await json(await exportAs(app, alice, 'json'));
    expect(body.version).toBe(1);
    expect(body.exported_at).toBe(new Date(app.clock.now).toISOString());
    expect(body.links.map((link: { code: string; status: string }) => `${link.code} ${link.status}`)).toEqual([
      'third disabled',
      '둘째 active',
      'first expired',
    ]);
    const listed = await json(await app.fetch('/api/v1/links', { headers: asKey(alice) }));
    expect(body.links).toEqual(listed.data.links);
    // bob sees his own link only; the administrator every link.
    const bobs = await json(await exportAs(app, bob, 'json'));
    expect(bobs.links.map((link: { code: string }) => link.code)).toEqual(['taken']);
    const all = await json(await exportAs(app, ADMIN, 'json'));
    expect(all.links).toHaveLength(4);
    // No link at all is still a whole document.
    const empty = makeHandler({ apiKey: ADMIN });
    expect(await json(await exportAs(empty, ADMIN, 'json'))).toEqual({
      version: 1,
      exported_at: new Date(START).toISOString(),
      links: [],
    });
  });

  it('needs a key (401), refuses other formats (400) and other methods (405)', async () => {
    const { app, alice } = await withLinks();
    expect((await app.fetch('/api/v1/links/export')).status).toBe(401);
    const wrong = await exportAs(app, alice, 'xml');
    expect(wrong.status).toBe(400);
    expect((await json(wrong)).message).toBe('format must be one of csv, json.');
    expect((await app.fetch('/api/v1/links/export', { method: 'POST', headers: asKey(alice) })).status).toBe(405);
    // Without format: JSON.
    expect((await app.fetch('/api/v1/links/export', { headers: asKey(alice) })).headers.get('content-type')).toMatch(
      /^application\/json/,
    );
  });

  it('goes page by page: 1,234 links come out once each, in order, and import back unchanged', async () => {
    const { app, alice, send } = await setUp();
    const lines = ['code,original_url'];
    for (let i = 0; i < 1234; i++) lines.push(`c${i},https://example.com/${i}`);
    const made = await json(await send(lines.join('\n'), alice, 'text/csv'));
    expect(made.data.created).toBe(1234);
    const exported = await (await exportAs(app, alice, 'csv')).text();
    const codes = exported
      .trim()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(',')[0]);
    expect(codes).toHaveLength(1234);
    expect(new Set(codes).size).toBe(1234);
    // One `now` for the whole import: every link has one creation time, so code keys order them.
    expect(codes).toEqual([...codes].sort().reverse());
    const again = await json(await send(exported, alice, 'text/csv'));
    expect(again.data).toMatchObject({ format: 'linklet-csv', unchanged: 1234, created: 0 });
  });
});

describe('CSV cells a spreadsheet would run as formulas', () => {
  const CODES = ['-2-3', '-', '--1', '_-x'];

  it('are written with a leading apostrophe, and a Linklet import reads the original back', async () => {
    const { app, alice, send } = await setUp();
    for (const code of CODES) {
      const made = await app.post(
        '/api/v1/shorten',
        { original_url: `https://example.com/${code}`, custom_code: code },
        asKey(alice),
      );
      expect(made.status).toBe(201);
    }
    const exported = await (await app.fetch('/api/v1/links/export?format=csv', { headers: asKey(alice) })).text();
    const firstCells = exported
      .trim()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(',')[0]);
    expect(firstCells.sort()).toEqual(["'-", "'--1", "'-2-3", '_-x']);

    // Into another server: the same codes and URLs, and its own export is the same file.
    const other = await setUp();
    const imported = await json(await other.send(exported, other.alice, 'text/csv'));
    expect(imported.data).toMatchObject({ format: 'linklet-csv', created: CODES.length, invalid: 0 });
    for (const code of CODES) {
      expect((await other.linkOf(code)).original_url).toBe(`https://example.com/${code}`);
    }
    const again = await (
      await other.app.fetch('/api/v1/links/export?format=csv', { headers: asKey(other.alice) })
    ).text();
    expect(again).toBe(exported);
    // And back into the first: every row is the caller's already, unchanged.
    expect((await json(await send(exported, alice, 'text/csv'))).data).toMatchObject({ unchanged: CODES.length });
  });

  it("are read as they are from another program's CSV, which never added the apostrophe", async () => {
    const { alice, send } = await setUp();
    const shlink = "shortCode,longUrl\n'-2-3,https://example.com/shlink\n";
    const answer = await json(await send(shlink, alice, 'text/csv'));
    expect(answer.data.results[0]).toMatchObject({ code: "'-2-3", status: 'invalid' });
  });
});

describe('an export whose store fails midway', () => {
  it('is cut off (the client sees an error, never a complete-looking file) and the failure is reported', async () => {
    const store = createMemoryLinkStore();
    let pages = 0;
    const failing = {
      ...store,
      listLinks: async (query: Parameters<typeof store.listLinks>[0]) => {
        if (++pages > 1) throw new Error('disk gone');
        return store.listLinks(query);
      },
    };
    const reported: unknown[] = [];
    const app = makeHandler({ apiKey: ADMIN, store: failing, onError: (error) => reported.push(error) });
    for (let i = 0; i < EXPORT_PAGE_SIZE + 1; i++) {
      await failing.create(
        {
          code: `p${i}`,
          codeKey: `p${i}`,
          originalUrl: 'https://example.com/',
          createdAt: START,
          expiresAt: START + DAY,
        },
        START,
      );
    }
    const response = await app.fetch('/api/v1/links/export?format=json', { headers: asKey(ADMIN) });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow('disk gone');
    expect(reported).toEqual([expect.objectContaining({ message: 'disk gone' })]);
  });
});
