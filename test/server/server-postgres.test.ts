import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from './server-process.js';

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `linklet_server_${randomBytes(4).toString('hex')}`;
// Every connection of the server's pool gets this schema first on its search path.
const serverUrl = () => {
  const url = new URL(DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
};

describe('two server processes on one PostgreSQL database', () => {
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    await admin.connect().catch((error: Error) => {
      throw new Error(`PostgreSQL at TEST_DATABASE_URL (${DATABASE_URL}) is not reachable: ${error.message}`);
    });
    await admin.query(`CREATE SCHEMA ${schema}`);
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  it('share links and let exactly one instance win a contested code', async () => {
    servers.push(
      ...(await Promise.all([startServer({ DATABASE_URL: serverUrl() }), startServer({ DATABASE_URL: serverUrl() })])),
    );
    const [a, b] = servers as [RunningServer, RunningServer];

    const made = await fetch(`${a.origin}/api/v1/shorten`, {
      method: 'POST',
      body: JSON.stringify({ original_url: 'https://example.com/pg', custom_code: '공유' }),
    });
    expect(made.status).toBe(201);
    const seen = await fetch(`${b.origin}/%EA%B3%B5%EC%9C%A0`, { redirect: 'manual' });
    expect(seen.status).toBe(302);
    expect(seen.headers.get('location')).toBe('https://example.com/pg');

    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${i % 2 ? a.origin : b.origin}/api.php`, {
          method: 'POST',
          body: JSON.stringify({ original_url: `https://example.com/${i}`, custom_code: 'contested' }),
        }).then((response) => response.status),
      ),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);

    const health = await fetch(`${b.origin}/health`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const rows = await admin.query(`SELECT count(*)::int AS n FROM ${schema}.links`);
    expect(rows.rows[0].n).toBe(2);
  });
});
