// The webhooks feature's bench scenarios for bench/run.mjs: what a `link.clicked` endpoint costs
// a redirect. Two counting servers recording visits take the same load (browsers' headers over
// 1k codes) in the same rounds: one on a store with no webhook, one on a store whose
// administrator's endpoint takes `link.clicked` for every link, a receiver in this process
// answering 204. Each click is then parsed, queued in the database and sent, off the redirect's
// path; the note below the table gives the per-round ratios (SPEC: at most 5 % more).
//
//   npm run build:server && BENCH_SCENARIOS=redirect-webhook-none,redirect-webhook-clicked node bench/run.mjs
import { createServer } from 'node:http';
import { openSqliteDatabase } from '../dist/server/stores/sqlite/sqlite-link-store.js';
import { verdict } from './target-notes.mjs';

const VISITS = { CLICK_COUNTING: 'on', VISITS: 'on', COUNTRY_HEADER: 'CF-IPCountry', BLOCK_PRIVATE_TARGETS: 'off' };

export const WEBHOOK_SCENARIOS = [
  {
    id: 'redirect-webhook-none',
    name: 'redirect, no webhook',
    links: 1_000,
    load: 'visitors',
    expect: 3,
    group: 'webhooks',
    env: VISITS,
  },
  {
    id: 'redirect-webhook-clicked',
    name: 'redirect, a link.clicked webhook',
    links: 1_000,
    webhook: true,
    load: 'visitors',
    expect: 3,
    group: 'webhooks',
    env: VISITS,
  },
  {
    // What the redirect's path itself pays: clicks are held and looked at, but the endpoint is
    // another owner's, so none is queued or sent.
    id: 'redirect-webhook-elsewhere',
    name: "redirect, another owner's link.clicked webhook",
    links: 1_000,
    webhook: 'elsewhere',
    load: 'visitors',
    expect: 3,
    group: 'webhooks',
    env: VISITS,
  },
];

/** The seeded database's key part for a scenario's webhook ('' when it has none). */
export const webhookKey = (scenario) =>
  scenario.webhook === 'elsewhere' ? '-webhook-elsewhere' : scenario.webhook ? '-webhook' : '';
/** The owner of the seeded endpoint: the administrator's (NULL, told of every link), or one owning none of them. */
const ownerOf = (scenario) => (scenario.webhook === 'elsewhere' ? 999 : null);

let receiverUrl;
/** A receiver on loopback answering every delivery 204 (started once; it does not keep the bench alive). */
async function receiver() {
  if (receiverUrl) return receiverUrl;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  receiverUrl = `http://127.0.0.1:${server.address().port}/hooks`;
  return receiverUrl;
}

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

/** Adds the administrator's `link.clicked` endpoint (told of every link) to the SQLite file at `path`. */
export async function seedWebhookSqlite(path, scenario) {
  const db = openSqliteDatabase(path);
  db.prepare('INSERT INTO webhooks (owner_id, url, events, secret, created_at) VALUES (?, ?, ?, ?, ?)').run(
    ownerOf(scenario),
    await receiver(),
    'link.clicked',
    SECRET,
    Date.now(),
  );
  db.close();
}

/** The same endpoint in the PostgreSQL `schema` that seedPostgres made. */
export async function seedWebhookPostgres(admin, schema, scenario) {
  await admin.query(
    `INSERT INTO ${schema}.webhooks (owner_id, url, events, secret, created_at) VALUES ($4, $1, 'link.clicked', $2, $3)`,
    [await receiver(), SECRET, Date.now(), ownerOf(scenario)],
  );
}

/** The notes below the table: the per-round ratios of the two servers, for each store and log. */
export function webhookNotes(rows, { stores, logs, median, fmt }) {
  const notes = [];
  for (const store of stores) {
    for (const log of logs) {
      const find = (id) => rows.find((row) => row.id === id && row.store === store && row.log === log);
      const none = find('redirect-webhook-none');
      for (const [id, what] of [
        ['redirect-webhook-clicked', 'with a link.clicked webhook (every click sent)'],
        [
          'redirect-webhook-elsewhere',
          "with another owner's link.clicked webhook (these links' clicks let go at once)",
        ],
      ]) {
        const other = find(id);
        if (!other || !none) continue;
        const perRound = (key) =>
          median(other.runs.linklet.map((run, i) => run[key] / (none.runs.linklet[i]?.[key] ?? Number.NaN)));
        const cpu = perRound('cpuUs');
        notes.push(
          `${store}, log to ${log}: ${what}, redirects ran at ${fmt(perRound('rps'), 3)}× the redirects/s ` +
            `of a store without one, at ${fmt(cpu, 3)}× its CPU per request (target: at most 5 % more: ${verdict(cpu, 1.05, true)})`,
        );
      }
    }
  }
  return notes;
}
