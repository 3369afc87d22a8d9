import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../scripts/server-process.mjs';
import { useServerProcesses } from './use-server-processes.js';

const COMMAND = resolve('dist/server/process/keys-command.js');
const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Runs the keys command (as `npm run keys` does, on the built server) with this DATABASE_URL. */
async function keys(databaseUrl: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [COMMAND, ...args], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const me = (server: RunningServer, key: string) =>
  fetch(`${server.origin}/api/v1/me`, { headers: { Authorization: `Bearer ${key}` } });

/** create → the key works on the running server; list shows it; revoke → 401 at once. */
async function createUseRevoke(databaseUrl: string, server: RunningServer) {
  const made = await keys(databaseUrl, 'create', '--name', 'alice');
  expect(made.code).toBe(0);
  const key = made.stdout.trimEnd().split('\n').at(-1) as string;
  expect(key).toMatch(/^lk_[0-9A-Za-z]{43}$/);
  expect(await (await me(server, key)).json()).toMatchObject({ data: { name: 'alice', admin: false } });

  const listed = await keys(databaseUrl, 'list');
  expect(listed.stdout).toMatch(/^\d+\talice\tmade \S+\tlast used \S+\tactive$/m);
  expect(listed.stdout).not.toContain(key);
  const id = listed.stdout.split('\t')[0] as string;

  expect((await keys(databaseUrl, 'revoke', id)).stdout).toBe(`Key ${id} revoked.\n`);
  expect((await me(server, key)).status).toBe(401);
  expect((await keys(databaseUrl, 'list')).stdout).toMatch(/\trevoked$/m);
}

describe('the keys command', () => {
  const { start, freshDb } = useServerProcesses('keys');

  it('makes, lists and revokes keys on a SQLite file a server is serving', async () => {
    const databaseUrl = `sqlite:${freshDb()}`;
    const server = await start({ DATABASE_URL: databaseUrl });
    await createUseRevoke(databaseUrl, server);
  });

  it('says how to use it, and fails on an unknown id', async () => {
    const databaseUrl = `sqlite:${freshDb()}`;
    const usage = await keys(databaseUrl);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('create --name NAME');
    expect((await keys(databaseUrl, 'create')).code).toBe(2);
    const unknown = await keys(databaseUrl, 'revoke', '41');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no key with id 41');
  });

  describe('on PostgreSQL', () => {
    const schema = `linklet_keys_${randomBytes(4).toString('hex')}`;
    const url = new URL(DATABASE_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    afterAll(async () => {
      const admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    });

    it('makes, lists and revokes keys while a server runs on the same database', async () => {
      const admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.end();
      const server = await start({ DATABASE_URL: url.toString() });
      await createUseRevoke(url.toString(), server);
    });
  });
});
