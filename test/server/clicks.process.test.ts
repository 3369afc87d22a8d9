import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../scripts/server-process.mjs';
import { useServerProcesses } from './use-server-processes.js';

// Clicks counted by real server processes and written to real stores: exact across processes
// and a SIGTERM, at most a second short after `kill -9`, and kept while the store refuses them.
const { freshDb, start } = useServerProcesses('clicks');
const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const QUIET = { ACCESS_LOG: 'off' };
/** A link's total clicks as the SQLite store keeps them (schema 9: under the link's id). */
const TOTAL_OF_CODE =
  'SELECT coalesce(t.clicks, 0) FROM links l LEFT JOIN link_click_totals t ON t.link_id = l.id WHERE l.code_key = ?';

type Statuses = Record<number | 'error', number>;

/**
 * Sends `total` requests over `connections` keep-alive connections, spread over `paths` in turn
 * (or, without `total`, until `until()` says stop); counts the answers by status, and calls
 * `onAnswer` with each one's status as it arrives.
 */
async function hammer(
  origin: string,
  paths: string[],
  options: {
    total?: number;
    connections: number;
    method?: string;
    headers?: Record<string, string>;
    until?: () => boolean;
    onAnswer?: (status: number) => void;
  },
): Promise<Statuses> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const statuses: Statuses = { error: 0 };
  let sent = 0;
  const more = () => (options.total === undefined ? !options.until?.() : sent < options.total);
  const one = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request(`${origin}${path}`, { agent, method: options.method ?? 'GET', headers: options.headers });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (more()) {
        const path = paths[sent++ % paths.length] as string;
        try {
          const status = await one(path);
          statuses[status] = (statuses[status] ?? 0) + 1;
          options.onAnswer?.(status);
        } catch {
          statuses.error++;
          await new Promise((resolve) => setTimeout(resolve, 5)); // a dead server refuses at once
        }
      }
    }),
  );
  agent.destroy();
  return statuses;
}

const shorten = async (server: RunningServer, code: string) => {
  const made = await fetch(`${server.origin}/api/v1/shorten`, {
    method: 'POST',
    body: JSON.stringify({ original_url: `https://example.com/${code}`, custom_code: code }),
  });
  expect(made.status).toBe(201);
};

/**
 * 20,000 clicks from 50 connections spread over two processes (25 each, two links), beside
 * HEADs, 404s and prefetches that must not count; then SIGTERM to both, which must exit 0.
 */
async function clickAcrossTwoProcesses(env: Record<string, string>): Promise<void> {
  const [a, b] = await Promise.all([start({ ...env, ...QUIET }), start({ ...env, ...QUIET })]);
  await shorten(a, 'one');
  await shorten(b, 'two');
  const paths = ['/one', '/two/', '/ONE?utm=x'];
  const [onA, onB, heads, missing, prefetches] = await Promise.all([
    hammer(a.origin, paths, { total: 10_000, connections: 25 }),
    hammer(b.origin, paths, { total: 10_000, connections: 25 }),
    hammer(a.origin, paths, { total: 500, connections: 2, method: 'HEAD' }),
    hammer(b.origin, ['/nothing-here'], { total: 500, connections: 2 }),
    hammer(b.origin, paths, { total: 200, connections: 2, headers: { 'Sec-Purpose': 'prefetch' } }),
  ]);
  expect(onA).toEqual({ error: 0, 302: 10_000 });
  expect(onB).toEqual({ error: 0, 302: 10_000 });
  expect(heads).toEqual({ error: 0, 302: 500 });
  expect(missing).toEqual({ error: 0, 404: 500 });
  expect(prefetches).toEqual({ error: 0, 302: 200 });
  expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
}

describe('click counts of real server processes', () => {
  it('are exact on SQLite: 20,000 clicks over two processes, then SIGTERM', async () => {
    const path = freshDb();
    await clickAcrossTwoProcesses({ DATABASE_URL: `sqlite:${path}` });
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT sum(clicks) FROM link_click_totals').pluck().get()).toBe(20_000);
    expect(db.prepare('SELECT sum(clicks) FROM link_click_days').pluck().get()).toBe(20_000);
    db.close();
  });

  describe('on PostgreSQL', () => {
    const schema = `linklet_clicks_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    afterAll(async () => {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    });

    it('are exact on PostgreSQL: 20,000 clicks over two processes, then SIGTERM', async () => {
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      const url = new URL(DATABASE_URL);
      url.searchParams.set('options', `-c search_path=${schema}`);
      await clickAcrossTwoProcesses({ DATABASE_URL: url.toString() });
      const sum = async (table: string) =>
        Number((await admin.query(`SELECT sum(clicks) AS n FROM ${schema}.${table}`)).rows[0].n);
      expect(await sum('links')).toBe(20_000);
      expect(await sum('link_click_days')).toBe(20_000);
    });
  });

  it('lose at most about the last second after kill -9 under load, and never count more than served', async () => {
    const path = freshDb();
    const server = await start({ DATABASE_URL: `sqlite:${path}`, ...QUIET });
    await shorten(server, 'load');
    const answeredAt: number[] = [];
    let killedAt = 0;
    const load = hammer(server.origin, ['/load'], {
      connections: 20,
      until: () => killedAt > 0,
      onAnswer: (status) => {
        if (status === 302) answeredAt.push(performance.now());
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    server.process.kill('SIGKILL');
    await server.exited;
    killedAt = performance.now();
    await load;
    const served = answeredAt.length;
    // Every click of the last second may be lost, and so may a batch whose commit was under way
    // (begun at most a second before): a margin of half a second on a busy machine.
    const lastSecondAndAHalf = answeredAt.filter((at) => at > killedAt - 1500).length;
    const db = new Database(path, { readonly: true });
    const stored = db.prepare(TOTAL_OF_CODE).pluck().get('load') as number;
    db.close();
    expect(served).toBeGreaterThan(1000);
    expect(stored).toBeLessThanOrEqual(served);
    expect(served - stored).toBeLessThanOrEqual(lastSecondAndAHalf);
  });

  it('are kept while the store refuses them (write lock held past the busy timeout) and written once it takes them', async () => {
    const path = freshDb();
    const server = await start({ DATABASE_URL: `sqlite:${path}`, ...QUIET });
    await shorten(server, 'held');
    const db = new Database(path);
    const stored = () => db.prepare(TOTAL_OF_CODE).pluck().get('held') as number;
    db.exec('BEGIN IMMEDIATE'); // this connection holds the write lock: every other writer waits, then fails
    const clicks = await hammer(server.origin, ['/held'], { total: 300, connections: 5 });
    expect(clicks).toEqual({ error: 0, 302: 300 });
    // The first write waits the 5 s busy timeout and fails; redirects go on meanwhile.
    const refused = (line: Record<string, unknown>) =>
      line.msg === 'click counts could not be written; they are kept and retried';
    for (let waited = 0; waited < 15_000 && !server.logs.some(refused); waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(server.logs.filter(refused)).toHaveLength(1);
    expect(stored()).toBe(0);
    expect(await hammer(server.origin, ['/held'], { total: 10, connections: 1 })).toEqual({ error: 0, 302: 10 });
    db.exec('ROLLBACK');
    for (let waited = 0; waited < 8000 && stored() < 310; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(stored()).toBe(310);
    expect(await server.stop()).toBe(0);
    expect(stored()).toBe(310); // written once, not again at exit
    expect(server.logs.some((line) => line.msg === 'click counts are being written again')).toBe(true);
    db.close();
  });
});
