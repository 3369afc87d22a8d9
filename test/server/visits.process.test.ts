import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../scripts/server-process.mjs';
import { useServerProcesses } from './use-server-processes.js';

// Visits recorded by real server processes sharing one database: a known mix of clicks comes out
// exactly in `stats`, and no table or column anywhere holds a client's address.
const { freshDb, start } = useServerProcesses('visits');
const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ADMIN = 'admin-key-for-visit-tests';
const GEOIP_DB = join(
  dirname(createRequire(import.meta.url).resolve('@ip-location-db/geo-whois-asn-country-mmdb/package.json')),
  'geo-whois-asn-country.mmdb',
);
const ENV = {
  ACCESS_LOG: 'off',
  API_KEY: ADMIN,
  COUNTRY_HEADER: 'CF-IPCountry',
  GEOIP_DB,
  TRUSTED_PROXIES: '127.0.0.1',
};

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

/** The mix: how many requests of each kind, and the headers they carry. */
const MIX: Array<{ n: number; method?: string; headers: Record<string, string> }> = [
  { n: 30, headers: { 'User-Agent': CHROME, Referer: 'https://www.google.com/search?q=who', 'CF-IPCountry': 'KR' } },
  // Countries from the local database through the trusted proxy's X-Forwarded-For.
  { n: 20, headers: { 'User-Agent': IPHONE, Referer: 'https://t.co/abc', 'X-Forwarded-For': '8.8.8.8' } },
  { n: 10, headers: { 'User-Agent': FIREFOX, 'X-Forwarded-For': '1.1.1.1' } },
  { n: 5, headers: { 'User-Agent': CHROME, DNT: '1', Referer: 'https://tracked.example/', 'CF-IPCountry': 'DE' } },
  { n: 4, headers: { 'User-Agent': IPHONE, 'Sec-GPC': '1', 'X-Forwarded-For': '8.8.4.4' } },
  { n: 6, headers: { 'User-Agent': GOOGLEBOT, Referer: 'https://www.google.com/', 'CF-IPCountry': 'US' } },
  { n: 7, method: 'HEAD', headers: { 'User-Agent': CHROME, 'CF-IPCountry': 'FR' } },
  { n: 8, headers: { 'User-Agent': CHROME, 'Sec-Purpose': 'prefetch', 'CF-IPCountry': 'FR' } },
  { n: 3, headers: { 'User-Agent': CHROME, Purpose: 'prefetch', 'CF-IPCountry': 'FR' } },
];

const EXPECTED = {
  total: 69,
  bots: 6,
  referrers: [
    { name: 'www.google.com', clicks: 30 },
    { name: 't.co', clicks: 20 },
    { name: 'direct', clicks: 10 },
    { name: 'unknown', clicks: 9 },
  ],
  countries: [
    { name: 'KR', clicks: 30 },
    { name: 'US', clicks: 20 },
    { name: 'AU', clicks: 10 },
    { name: 'unknown', clicks: 9 },
  ],
  browsers: [
    { name: 'Chrome', clicks: 30 },
    { name: 'Safari', clicks: 20 },
    { name: 'Firefox', clicks: 10 },
    { name: 'unknown', clicks: 9 },
  ],
  os: [
    { name: 'Windows', clicks: 30 },
    { name: 'iOS', clicks: 20 },
    { name: 'Linux', clicks: 10 },
    { name: 'unknown', clicks: 9 },
  ],
  devices: [
    { name: 'desktop', clicks: 40 },
    { name: 'mobile', clicks: 20 },
    { name: 'unknown', clicks: 9 },
  ],
};

/** The addresses the mix came from or named: none may be stored anywhere. */
const ADDRESSES = ['127.0.0.1', '8.8.8.8', '1.1.1.1', '8.8.4.4'];

const adminCall = (server: RunningServer, method: string, path: string, body?: unknown) =>
  fetch(`${server.origin}${path}`, {
    method,
    headers: { 'X-API-Key': ADMIN, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** The mix, spread over both processes in turn; then the stats once both have written. */
async function clickTheMix(a: RunningServer, b: RunningServer) {
  const made = await adminCall(a, 'POST', '/api/v1/shorten', {
    original_url: 'https://example.com/landing',
    custom_code: 'mix',
  });
  expect(made.status).toBe(201);
  let turn = 0;
  const sends: Array<Promise<number>> = [];
  for (const { n, method, headers } of MIX) {
    for (let i = 0; i < n; i++) {
      const server = turn++ % 2 === 0 ? a : b;
      sends.push(
        fetch(`${server.origin}/mix`, { method: method ?? 'GET', headers, redirect: 'manual' }).then((r) => r.status),
      );
    }
  }
  expect(new Set(await Promise.all(sends))).toEqual(new Set([302]));
  // SIGTERM writes what each process counted; a third process reads the shared database.
  expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
}

async function statsOf(server: RunningServer) {
  const response = await adminCall(server, 'GET', '/api/v1/links/mix/stats');
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: Record<string, unknown> }).data;
}

async function expectTheMix(server: RunningServer) {
  const stats = await statsOf(server);
  expect(stats).toMatchObject(EXPECTED);
  expect((stats.days as Array<{ clicks: number }>).at(-1)?.clicks).toBe(69);
  const visits = await adminCall(server, 'GET', '/api/v1/links/mix/visits?format=csv');
  const rows = (await visits.text()).trim().split('\r\n');
  expect(rows).toHaveLength(1 + 75);
  for (const address of ADDRESSES) expect(rows.join('\n')).not.toContain(address);
}

/** No column is named for an address, and no stored text holds one. */
function expectNoAddresses(columns: Array<{ table: string; column: string }>, texts: string[]) {
  expect(columns.filter(({ column }) => /(^|_)(ip|addr|address|remote|forwarded)/i.test(column))).toEqual([]);
  const everything = texts.join('\n');
  for (const address of ADDRESSES) expect(everything).not.toContain(address);
}

describe('visits of real server processes sharing a database', () => {
  it('come out exactly in stats on SQLite (2 processes), and no address is stored anywhere', {
    timeout: 60_000,
  }, async () => {
    const path = freshDb();
    const env = { ...ENV, DATABASE_URL: `sqlite:${path}` };
    const [a, b] = await Promise.all([start(env), start(env)]);
    await clickTheMix(a, b);
    await expectTheMix(await start(env));

    const db = new Database(path, { readonly: true });
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
    const columns = tables.flatMap((table) =>
      (db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]).map((column) => ({
        table,
        column,
      })),
    );
    const texts = tables.map((table) => JSON.stringify(db.prepare(`SELECT * FROM "${table}"`).all()));
    expect(texts.join('\n')).toContain('t.co'); // the dump does read the visits
    expectNoAddresses(columns, texts);
    db.close();
  });

  describe('on PostgreSQL', () => {
    const schema = `linklet_visits_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    afterAll(async () => {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    });

    it('come out exactly in stats (2 processes), and no address is stored anywhere', { timeout: 60_000 }, async () => {
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      const url = new URL(DATABASE_URL);
      url.searchParams.set('options', `-c search_path=${schema}`);
      const env = { ...ENV, DATABASE_URL: url.toString() };
      const [a, b] = await Promise.all([start(env), start(env)]);
      await clickTheMix(a, b);
      await expectTheMix(await start(env));

      const { rows: columns } = await admin.query<{ table: string; column: string }>(
        'SELECT table_name AS table, column_name AS column FROM information_schema.columns WHERE table_schema = $1',
        [schema],
      );
      const tables = [...new Set(columns.map(({ table }) => table))];
      const texts = await Promise.all(
        tables.map(async (table) => JSON.stringify((await admin.query(`SELECT * FROM ${schema}."${table}"`)).rows)),
      );
      expect(texts.join('\n')).toContain('t.co');
      expectNoAddresses(columns, texts);
    });
  });
});
