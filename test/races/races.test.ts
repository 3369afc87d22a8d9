import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from '../../core/handler.js';
import { codeKey } from '../../core/rules/code.js';
import { createRandomCodeGenerator } from '../../core/rules/generate-code.js';
import type { LinkStore } from '../../core/store/link-store.js';
import { createMemoryLinkStore } from '../../core/store/memory-link-store.js';
import { createSqliteLinkStore } from '../../server/stores/sqlite/sqlite-link-store.js';
import { useServerProcesses } from '../server/use-server-processes.js';

const N = 120;
const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const servers = useServerProcesses('races');
const { freshDb } = servers;
const start = servers.start;

interface Outcome {
  status: number;
  url: string;
  code?: string;
}

/** `N` creates of `customCode` at once, spread over `origins`, each with its own URL. */
async function contest(origins: string[], customCode: string, tag: string): Promise<Outcome[]> {
  // Every request is on the wire before any answer is read.
  return Promise.all(
    Array.from({ length: N }, async (_, i) => {
      const url = `https://example.com/${tag}/${i}`;
      const response = await fetch(`${origins[i % origins.length]}${i % 3 ? '/api/v1/shorten' : '/api.php'}`, {
        method: 'POST',
        body: JSON.stringify({ original_url: url, custom_code: i % 2 ? customCode : customCode.toUpperCase() }),
      });
      const body = await response.json();
      return { status: response.status, url, code: body.data?.code };
    }),
  );
}

function statusCounts(outcomes: Outcome[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of outcomes) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** Exactly one create won (201 or the legacy 200); every other one was told 409; the link is the winner's. */
async function expectOneWinner(outcomes: Outcome[], origins: string[], code: string): Promise<void> {
  const winners = outcomes.filter((outcome) => outcome.status === 201 || outcome.status === 200);
  const refused = outcomes.filter((outcome) => outcome.status === 409);
  // Compared as one histogram so a failure shows every status that came back.
  expect({ winners: winners.length, refused: refused.length, statuses: statusCounts(outcomes) }).toMatchObject({
    winners: 1,
    refused: N - 1,
  });
  const winner = winners[0] as Outcome;
  for (const origin of origins) {
    const resolved = await fetch(`${origin}/${encodeURIComponent(code)}`, { redirect: 'manual' });
    expect(resolved.status).toBe(302);
    expect(resolved.headers.get('location')).toBe(winner.url);
  }
}

describe(`${N} concurrent creates of one custom code, over real HTTP`, () => {
  it('one server process on SQLite: exactly one 201, the rest 409', async () => {
    const server = await start({ DATABASE_URL: `sqlite:${freshDb()}` });
    await expectOneWinner(await contest([server.origin], 'race', 'one'), [server.origin], 'race');
  });

  it('two server processes sharing one SQLite file: exactly one winner', async () => {
    const path = freshDb();
    const [a, b] = await Promise.all([
      start({ DATABASE_URL: `sqlite:${path}` }),
      start({ DATABASE_URL: `sqlite:${path}` }),
    ]);
    const origins = [a.origin, b.origin];
    await expectOneWinner(await contest(origins, '경주', 'two-sqlite'), origins, '경주');
  });

  it('two server processes sharing one SQLite file: an expired code is taken by exactly one', async () => {
    const path = freshDb();
    const [a, b] = await Promise.all([
      start({ DATABASE_URL: `sqlite:${path}` }),
      start({ DATABASE_URL: `sqlite:${path}` }),
    ]);
    const first = await fetch(`${a.origin}/api/v1/shorten`, {
      method: 'POST',
      body: JSON.stringify({ original_url: 'https://example.com/old', custom_code: 'reuse' }),
    });
    expect(first.status).toBe(201);
    const db = new Database(path);
    db.prepare('UPDATE links SET expires_at = ? WHERE code_key = ?').run(Date.now() - 1, 'reuse');
    db.close();
    const origins = [a.origin, b.origin];
    await expectOneWinner(await contest(origins, 'reuse', 'reuse-sqlite'), origins, 'reuse');
  });
});

describe(`${N} concurrent creates on two server processes sharing one PostgreSQL database`, () => {
  const schema = `linklet_races_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  const serverUrl = () => {
    const url = new URL(DATABASE_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return url.toString();
  };
  beforeAll(async () => {
    await admin.connect().catch((error: Error) => {
      throw new Error(`PostgreSQL at TEST_DATABASE_URL (${DATABASE_URL}) is not reachable: ${error.message}`);
    });
    await admin.query(`CREATE SCHEMA ${schema}`);
  });
  afterAll(async () => {
    await servers.stopAll();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  it('exactly one 201, the rest 409', async () => {
    const [a, b] = await Promise.all([start({ DATABASE_URL: serverUrl() }), start({ DATABASE_URL: serverUrl() })]);
    const origins = [a.origin, b.origin];
    await expectOneWinner(await contest(origins, 'pgrace', 'two-pg'), origins, 'pgrace');
  });

  it('an expired code is taken by exactly one', async () => {
    const [a, b] = await Promise.all([start({ DATABASE_URL: serverUrl() }), start({ DATABASE_URL: serverUrl() })]);
    const first = await fetch(`${b.origin}/api/v1/shorten`, {
      method: 'POST',
      body: JSON.stringify({ original_url: 'https://example.com/old', custom_code: '재사용' }),
    });
    expect(first.status).toBe(201);
    await admin.query(`UPDATE ${schema}.links SET expires_at = now() - interval '1 second' WHERE code_key = $1`, [
      '재사용',
    ]);
    const origins = [a.origin, b.origin];
    await expectOneWinner(await contest(origins, '재사용', 'reuse-pg'), origins, '재사용');
  });
});

describe('generated codes under load, with a tiny alphabet', () => {
  /** Counts the store's refusals: each is a collision that `shorten` must retry. */
  function counting(store: LinkStore) {
    const counts = { collisions: 0 };
    const wrapped: LinkStore = {
      ...store,
      create: async (link, now) => {
        const result = await store.create(link, now);
        if (!result.created) counts.collisions += 1;
        return result;
      },
      findByCodeKey: (key) => store.findByCodeKey(key),
      ping: () => store.ping(),
      close: () => store.close(),
    };
    return { store: wrapped, counts };
  }

  /** `count` creates at once through `handlers` (round robin); returns the codes made. */
  async function createMany(handlers: Array<(request: Request) => Promise<Response>>, count: number) {
    const answers = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const handler = handlers[i % handlers.length] as (request: Request) => Promise<Response>;
        const response = await handler(
          new Request('https://sho.rt/api/v1/shorten', {
            method: 'POST',
            body: JSON.stringify({ original_url: `https://example.com/generated/${i}` }),
          }),
        );
        return { status: response.status, body: await response.json() };
      }),
    );
    expect(answers.filter((answer) => answer.status !== 201)).toEqual([]);
    return answers.map((answer) => answer.body.data.code as string);
  }

  it.each([
    ['the memory store', () => createMemoryLinkStore()],
    ['the SQLite store (group commit on its writer thread)', () => createSqliteLinkStore(freshDb())],
  ])('%s: no duplicates, collisions retried with longer codes', async (_name, makeStore) => {
    const { store, counts } = counting(makeStore());
    const handler = createHandler({ store, baseUrl: 'https://sho.rt', generateCode: createRandomCodeGenerator('abc') });
    const codes = await createMany([handler], 600); // 3^7 = 2187 codes of 7 characters
    expect(new Set(codes.map(codeKey)).size).toBe(600);
    expect(codes.every((code) => /^[abc]{7,}$/.test(code))).toBe(true);
    expect(counts.collisions).toBeGreaterThan(0);
    for (const code of codes.slice(0, 50)) expect(await store.findByCodeKey(codeKey(code))).toBeDefined();
    await store.close();
  });

  it('two SQLite stores on one file (as two processes): no code is handed out twice', async () => {
    const path = freshDb();
    const a = counting(createSqliteLinkStore(path));
    const b = counting(createSqliteLinkStore(path));
    const generateCode = createRandomCodeGenerator('ab'); // 2^7 = 128 codes of 7 characters
    const handlers = [a.store, b.store].map((store) =>
      createHandler({ store, baseUrl: 'https://sho.rt', generateCode }),
    );
    const codes = await createMany(handlers, 200);
    expect(new Set(codes).size).toBe(200);
    expect(codes.some((code) => code.length > 7)).toBe(true); // 200 > 128: lengths had to grow
    expect(a.counts.collisions + b.counts.collisions).toBeGreaterThan(0);
    const raw = new Database(path, { readonly: true });
    expect(raw.prepare('SELECT count(*) AS n FROM links').get()).toEqual({ n: 200 });
    raw.close();
    await a.store.close();
    await b.store.close();
  });
});
