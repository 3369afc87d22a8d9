import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../scripts/server-process.mjs';
import { useServerProcesses } from './use-server-processes.js';

// A link made signed out, claimed at sign-in (SPEC "Everyday use"), on the built server over real
// HTTP, on SQLite and on PostgreSQL: the create answers a claim token (by the fast path), the
// database keeps only its SHA-256, a claim makes the link the owner's once, and the token is
// written to no log.
const servers = useServerProcesses('claim-links');
const KEYS_COMMAND = resolve('dist/server/process/keys-command.js');
const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `linklet_claims_${randomBytes(4).toString('hex')}`;
let admin: pg.Client | undefined;
afterAll(async () => {
  await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin?.end();
});

/** A new owner key, made with the keys command as an operator makes it. */
async function ownerKey(databaseUrl: string, name: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [KEYS_COMMAND, 'create', '--name', name], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl },
  });
  return stdout.trimEnd().split('\n').at(-1) as string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** What the database holds for a code: its owner and claim-token hash. */
type StoredClaim = (codeKey: string) => Promise<{ owner_id: unknown; claim_token_hash: string | null }>;

async function claimAtSignIn(server: RunningServer, databaseUrl: string, stored: StoredClaim) {
  const [alice, bob] = [await ownerKey(databaseUrl, 'alice'), await ownerKey(databaseUrl, 'bob')];
  const made = await fetch(`${server.origin}/api/v1/shorten`, {
    method: 'POST',
    body: JSON.stringify({ original_url: 'https://example.com/made-signed-out' }),
  });
  expect(made.status).toBe(201);
  const { code, claim_token: token } = (await made.json()).data;
  expect(token).toMatch(/^lc_[A-Za-z0-9_-]{43}$/);
  expect(await stored(code.toLowerCase())).toEqual({ owner_id: null, claim_token_hash: sha256(token) });

  const api = (key: string, path: string, body?: unknown) =>
    fetch(`${server.origin}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    }).then(async (response) => ({ status: response.status, body: await response.json() }));
  expect((await api(alice, '/api/v1/links')).body.data.links).toEqual([]);

  const claims = { claims: [{ code, claim_token: token }] };
  const claimed = await api(alice, '/api/v1/links/claim', claims);
  expect(claimed.status).toBe(200);
  expect(claimed.body.data.claimed.map((link: { code: string }) => link.code)).toEqual([code]);
  expect((await api(alice, '/api/v1/links')).body.data.links.map((link: { code: string }) => link.code)).toEqual([
    code,
  ]);
  const spent = await stored(code.toLowerCase());
  expect(spent.claim_token_hash).toBeNull();
  expect(spent.owner_id).not.toBeNull();

  const again = await api(bob, '/api/v1/links/claim', claims);
  expect(again.body.data.refused).toEqual([{ code, reason: 'owned', message: expect.any(String) }]);
  expect((await api(bob, '/api/v1/links')).body.data.links).toEqual([]);
  await server.waitForLogs((entry) => entry.path === '/api/v1/links/claim', 2);
  expect(JSON.stringify(server.logs) + server.stderr()).not.toContain(token.slice(3));
}

describe('a link made without a key, claimed by its maker on the server process', () => {
  it('on SQLite', async () => {
    const file = servers.freshDb();
    const databaseUrl = `sqlite:${file}`;
    const server = await servers.start({ DATABASE_URL: databaseUrl });
    const db = new Database(file, { readonly: true });
    try {
      const read = db.prepare('SELECT owner_id, claim_token_hash FROM links WHERE code_key = ?');
      await claimAtSignIn(
        server,
        databaseUrl,
        async (codeKey) => read.get(codeKey) as Awaited<ReturnType<StoredClaim>>,
      );
    } finally {
      db.close();
    }
  });

  it('on PostgreSQL', async () => {
    admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const url = new URL(POSTGRES_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    const server = await servers.start({ DATABASE_URL: url.toString() });
    const client = admin;
    await claimAtSignIn(server, url.toString(), async (codeKey) => {
      const { rows } = await client.query(
        `SELECT owner_id, claim_token_hash FROM ${schema}.links WHERE code_key = $1`,
        [codeKey],
      );
      return rows[0];
    });
  });
});
