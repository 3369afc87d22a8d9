// The password feature's bench scenarios for bench/run.mjs: redirects of links without a password
// must not slow down because the store also holds protected links. Two servers in the same rounds
// take the same load (uniform over 1k unprotected codes): one on a store holding only those links,
// one on a store that also holds 1k protected links (each with a real scrypt hash). The note below
// the table gives the per-round ratios of requests/s and of CPU per request; 1.00 means the
// passwords cost unprotected redirects nothing.
//
//   npm run build:server && BENCH_SCENARIOS=redirect-passwords-none,redirect-passwords-stored node bench/run.mjs
import { seedSqliteLinks } from './seed-sqlite.mjs';

export const PASSWORD_SCENARIOS = [
  {
    id: 'redirect-passwords-none',
    name: 'redirect, no protected link stored',
    links: 1_000,
    load: 'uniform',
    expect: 3,
    group: 'passwords',
  },
  {
    id: 'redirect-passwords-stored',
    name: 'redirect of unprotected links, 1k protected links stored',
    links: 1_000,
    protectedLinks: 1_000,
    load: 'uniform',
    expect: 3,
    group: 'passwords',
  },
];

/** The seeded database's key part for a scenario's protected links ('' when it has none). */
export const protectedKey = (scenario) => (scenario.protectedLinks ? `-protected-${scenario.protectedLinks}` : '');

// Their own prefix, so the load's codes (`k…`) never ask for one of them.
const protectedCodeAt = (i) => `p${String(i).padStart(7, '0')}`;

/**
 * One real hash, as the server makes it (scrypt), shared by every seeded protected link: hashing
 * each would take minutes, and the redirects measured never verify one.
 */
async function protectedHash() {
  const { createScryptPasswordHasher } = await import('../dist/server/passwords/scrypt-password-hasher.js');
  return createScryptPasswordHasher().hash('bench password 1234');
}

/** Adds `count` protected links to the SQLite file at `path`, in one transaction. */
export async function seedProtectedSqlite(path, count) {
  const hash = await protectedHash();
  seedSqliteLinks(path, count, (i) => ({ code: protectedCodeAt(i), url: `https://example.com/private/${i}` }), hash);
}

/** Adds `count` protected links to the PostgreSQL `schema` that seedPostgres made. */
export async function seedProtectedPostgres(admin, schema, count) {
  await admin.query(
    `INSERT INTO ${schema}.links (code_key, code, original_url, created_at, expires_at, updated_at, password_hash)
     SELECT c, c, 'https://example.com/private/' || i, now(), now() + interval '30 days', now(), $2::text
     FROM generate_series(0, $1::int - 1) AS i, LATERAL (SELECT 'p' || lpad(i::text, 7, '0') AS c) AS code`,
    [count, await protectedHash()],
  );
  await admin.query(`VACUUM ANALYZE ${schema}.links`);
}

/** The note under the table: unprotected redirects with protected links stored, per round, over none stored. */
export function passwordNotes(rows, { stores, logs, median, fmt }) {
  const notes = [];
  for (const store of stores) {
    for (const log of logs) {
      const find = (id) => rows.find((row) => row.id === id && row.store === store && row.log === log);
      const [stored, none] = [find('redirect-passwords-stored'), find('redirect-passwords-none')];
      if (!stored || !none) continue;
      const perRound = (key) =>
        median(stored.runs.linklet.map((run, i) => run[key] / (none.runs.linklet[i]?.[key] ?? Number.NaN)));
      // CPU per request is the steadier figure on a busy machine (it counts the server's own work).
      notes.push(
        `${store}, log to ${log}: with 1k protected links stored, unprotected redirects ran at ${fmt(perRound('rps'), 3)}× ` +
          `the redirects/s of a store without any, at ${fmt(perRound('cpuUs'), 3)}× its CPU per request (1.00 = unchanged)`,
      );
    }
  }
  return notes;
}
