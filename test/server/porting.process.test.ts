import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../scripts/server-process.mjs';
import { usePostgresSchema } from './postgres-schema.js';
import { useServerProcesses } from './use-server-processes.js';

const { schema, admin, url: postgresUrl } = usePostgresSchema('linklet_porting');

// Export → import into an empty server → export gives the same links, through real server
// processes on SQLite files and on PostgreSQL.

const ADMIN = 'admin-key-for-porting-tests';
const BASE_URL = 'https://sho.rt';

const { start, freshDb } = useServerProcesses('porting');
const serve = (database: string) => start({ DATABASE_URL: database, API_KEY: ADMIN, BASE_URL });

function call(server: RunningServer, method: string, path: string, key: string, body?: string, type?: string) {
  return fetch(`${server.origin}${path}`, {
    method,
    headers: { 'X-API-Key': key, ...(type ? { 'Content-Type': type } : {}) },
    ...(body === undefined ? {} : { body }),
  });
}

/** The whole export, as text. */
async function exported(server: RunningServer, format: 'csv' | 'json', key = ADMIN): Promise<string> {
  const response = await call(server, 'GET', `/api/v1/links/export?format=${format}`, key);
  expect(response.status).toBe(200);
  return response.text();
}

// biome-ignore lint/suspicious/noExplicitAny: the export is read as plain JSON.
type Json = any;
/** The links of a JSON export without `updated_at`, which an import sets to the moment of import. */
const linksOf = (text: string) =>
  (JSON.parse(text) as Json).links.map(({ updated_at: _, ...link }: Record<string, unknown>) => link);

async function importInto(server: RunningServer, text: string, type: string, key = ADMIN) {
  const response = await call(server, 'POST', '/api/v1/links/import', key, text, type);
  const body = (await response.json()) as Json;
  expect(response.status, JSON.stringify(body).slice(0, 500)).toBe(200);
  return body.data;
}

/** A server with links of two owners and the administrator, one disabled, one with a Hangul code. */
async function populated(database: string) {
  const server = await serve(database);
  const keyOf = async (name: string) =>
    ((await (await call(server, 'POST', '/api/v1/keys', ADMIN, JSON.stringify({ name }))).json()) as Json).data
      .key as string;
  const alice = await keyOf('alice');
  const bob = await keyOf('bob');
  const shorten = async (key: string, code: string, url: string, expire = '1week') => {
    const body = JSON.stringify({ original_url: url, custom_code: code, expire_duration: expire });
    expect((await call(server, 'POST', '/api/v1/shorten', key, body, 'application/json')).status).toBe(201);
  };
  for (let i = 0; i < 30; i++) await shorten(alice, `alice-${i}`, `https://example.com/a/${i}?q=a,b`);
  await shorten(bob, '봄날', 'https://example.com/"spring"', '1month');
  await shorten(ADMIN, 'Admin-Link', 'https://example.com/admin', '24h');
  const patched = await call(server, 'PATCH', '/api/v1/links/alice-3', alice, '{"disabled":true}', 'application/json');
  expect(patched.status).toBe(200);
  return { server, alice, bob };
}

describe('export → import into an empty server → export', () => {
  it('gives the same links on SQLite, through CSV and through JSON', async () => {
    const { server, alice } = await populated(`sqlite:${freshDb()}`);
    const json = await exported(server, 'json');
    const csv = await exported(server, 'csv');
    expect(linksOf(json)).toHaveLength(32);
    // (text() drops the byte order mark the CSV starts with.)
    expect(csv.split('\r\n')[0]).toBe(
      'code,short_url,original_url,created_at,expiration_date,status,clicks,title,tags',
    );

    const fromCsv = await serve(`sqlite:${freshDb()}`);
    expect(await importInto(fromCsv, csv, 'text/csv')).toMatchObject({ format: 'linklet-csv', created: 32 });
    expect(linksOf(await exported(fromCsv, 'json'))).toEqual(linksOf(json));
    expect(await exported(fromCsv, 'csv')).toBe(csv);

    const fromJson = await serve(`sqlite:${freshDb()}`);
    expect(await importInto(fromJson, json, 'application/json')).toMatchObject({ format: 'linklet-json', created: 32 });
    expect(linksOf(await exported(fromJson, 'json'))).toEqual(linksOf(json));
    // The imported links redirect, the disabled one answers 410.
    const redirect = await fetch(`${fromJson.origin}/alice-7`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('https://example.com/a/7?q=a,b');
    expect((await fetch(`${fromJson.origin}/alice-3`, { redirect: 'manual' })).status).toBe(410);

    // An owner's export is that owner's links only.
    expect(linksOf(await exported(server, 'json', alice))).toHaveLength(30);
  });

  it('gives the same links from SQLite into PostgreSQL, and an owner imports into her own links', async () => {
    const { server, alice } = await populated(`sqlite:${freshDb()}`);
    const json = await exported(server, 'json');
    const target = await serve(postgresUrl());
    expect(await importInto(target, json, 'application/json')).toMatchObject({ created: 32, conflict: 0 });
    expect(linksOf(await exported(target, 'json'))).toEqual(linksOf(json));
    // Again: every row is already there.
    expect(await importInto(target, json, 'application/json')).toMatchObject({ unchanged: 32, created: 0 });

    // alice's own export, imported with a key of hers on the emptied PostgreSQL server: hers again.
    const mine = await exported(server, 'csv', alice);
    await admin.query(`TRUNCATE ${schema}.links`);
    const key = ((await (await call(target, 'POST', '/api/v1/keys', ADMIN, '{"name":"alice"}')).json()) as Json).data
      .key as string;
    expect(await importInto(target, mine, 'text/csv', key)).toMatchObject({ created: 30 });
    expect(linksOf(await exported(target, 'json', key))).toEqual(linksOf(await exported(server, 'json', alice)));
  });
});
