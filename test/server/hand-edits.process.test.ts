import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { rawRequest } from '../raw-http.js';
import { TEST_DATABASE_URL, usePostgresSchema } from './postgres-schema.js';
import { useServerProcesses } from './use-server-processes.js';

// A link edited in the database around the API (the sqlite3 shell, psql, a script) is seen by a
// running server as soon as one edited through the API, although the server trusts what it
// cached for CACHE_SECONDS (10 minutes by default): the table's triggers log or announce it.
const servers = useServerProcesses('hand-edits');
const postgres = usePostgresSchema('linklet_hand_edits');
const ADMIN = 'admin-key-for-hand-edits-0123';

/** Where `GET /{code}` sends the browser now (its status and `Location`), through the fast path. */
async function redirectOf(port: number, code: string) {
  const answer = await rawRequest(port, { method: 'GET', path: `/${code}`, headers: { Host: `localhost:${port}` } });
  return { status: answer?.status, location: answer?.headers.location };
}

/** Asks until the answer is `wanted`, for at most 5 s (a change reaches the cache within a second). */
async function eventually(port: number, code: string, wanted: { status: number; location?: string }) {
  let last: Awaited<ReturnType<typeof redirectOf>> | undefined;
  for (const started = Date.now(); Date.now() - started < 5000; ) {
    last = await redirectOf(port, code);
    if (last.status === wanted.status && last.location === wanted.location) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(last).toEqual(wanted);
}

/** Creates `code` through the API and asks for it once, so the server caches it. */
async function createCached(server: { origin: string; port: number }, code: string) {
  const created = await fetch(`${server.origin}/api/v1/shorten`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': ADMIN },
    body: JSON.stringify({ original_url: `https://example.com/${code}`, custom_code: code }),
  });
  expect(created.status).toBe(201);
  expect(await redirectOf(server.port, code)).toEqual({ status: 302, location: `https://example.com/${code}` });
  expect(await redirectOf(server.port, code)).toEqual({ status: 302, location: `https://example.com/${code}` });
}

describe('a link edited by hand in the database, while the server has it cached', () => {
  it('SQLite: a new target and a delete through a connection of its own are served within a second', async () => {
    const path = servers.freshDb();
    const server = await servers.start({ DATABASE_URL: `sqlite:${path}`, API_KEY: ADMIN });
    await createCached(server, 'edited');
    await createCached(server, 'removed');
    const shell = new Database(path);
    try {
      shell.prepare("UPDATE links SET original_url = 'https://example.org/new' WHERE code_key = 'edited'").run();
      await eventually(server.port, 'edited', { status: 302, location: 'https://example.org/new' });
      shell.prepare("DELETE FROM links WHERE code_key = 'removed'").run();
      await eventually(server.port, 'removed', { status: 404 });
      // The log holds only those two, on SQLite's clock: redirects and their counts add nothing.
      const logged = shell.prepare('SELECT code_key, changed_at FROM link_changes ORDER BY seq').all() as Array<{
        code_key: string;
        changed_at: number;
      }>;
      expect(logged.map((row) => row.code_key)).toEqual(['edited', 'removed']);
      for (const { changed_at } of logged) expect(Math.abs(changed_at - Date.now())).toBeLessThan(60_000);
    } finally {
      shell.close();
    }
  });

  it('PostgreSQL: a new target, a disable and a delete made in psql are served within a second', async () => {
    const server = await servers.start({ DATABASE_URL: postgres.url(), API_KEY: ADMIN });
    await createCached(server, 'edited');
    await createCached(server, 'paused');
    await createCached(server, 'removed');
    await createCached(server, 'clicked');
    const table = `${postgres.schema}.links`;
    await postgres.admin.query(
      `UPDATE ${table} SET original_url = 'https://example.org/new' WHERE code_key = 'edited'`,
    );
    await eventually(server.port, 'edited', { status: 302, location: 'https://example.org/new' });
    await postgres.admin.query(`UPDATE ${table} SET disabled = true WHERE code_key = 'paused'`);
    await eventually(server.port, 'paused', { status: 410 }); // disabled by its owner
    await postgres.admin.query(`DELETE FROM ${table} WHERE code_key = 'removed'`);
    await eventually(server.port, 'removed', { status: 404 });
    // A click count is no change to a redirect: it announces nothing (the trigger names the columns).
    const listener = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await listener.connect();
    try {
      const heard: string[] = [];
      listener.on('notification', (notice) => heard.push(notice.payload ?? ''));
      await listener.query('LISTEN linklet_link_changes');
      await postgres.admin.query(`UPDATE ${table} SET clicks = clicks + 5 WHERE code_key = 'clicked'`);
      // Then a change that does announce itself: notices come in commit order, so the count's would be first.
      await postgres.admin.query(`UPDATE ${table} SET title = 'Renamed' WHERE code_key = 'paused'`);
      for (let waited = 0; waited < 3000 && heard.length === 0; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(heard).toEqual(['paused']);
    } finally {
      await listener.end();
    }
  });
});
