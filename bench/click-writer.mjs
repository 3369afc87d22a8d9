// `npm run bench:clicks`: what writing a second's clicks costs the SQLite store, per click, at
// 1k links (the baseline) and at 1M links requested alike, with visits off and on. Each batch is
// 20,000 clicks spread evenly over the links, written through the store as the server's click
// counter writes it (one batch a second); the figure is the process's CPU time (main thread and
// writer thread) per click, median of the batches after two warming ones. At a million links
// every click is another link's, so a batch is tens of thousands of rows to find and write across
// four tables; this isolates that cost from the redirects around it (bench/run.mjs shows both).
// Knobs: BENCH_CLICKS=20000 (a batch), BENCH_BATCHES=20. Not part of `npm test`.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteLinkStore } from '../dist/server/stores/sqlite/sqlite-link-store.js';
import { seedSqliteLinks } from './seed-sqlite.mjs';

const env = process.env;
const CLICKS = Number(env.BENCH_CLICKS ?? 20_000);
const BATCHES = Number(env.BENCH_BATCHES ?? 20);
const WARMING = 2;
const DAY_MS = 86_400_000;
const codeAt = (i) => `c${String(i).padStart(7, '0')}`;
const dir = mkdtempSync(join(tmpdir(), 'linklet-click-writer-'));

/**
 * `count` links whose ids do not follow their codes (as with generated codes): link n gets the
 * code of n × 7919 mod count, a permutation, since 7919 is prime and divides no power of ten.
 */
function seed(path, count) {
  seedSqliteLinks(path, count, (n) => ({
    code: codeAt((n * 7919) % count),
    url: `https://example.com/articles/2026/11/${n}?utm_source=newsletter`,
  }));
}

const REFERRERS = ['direct', 'news.example', 'search.example', null];
const BROWSERS = [
  ['Chrome', 'Windows', 'desktop'],
  ['Safari', 'iOS', 'mobile'],
  ['Firefox', 'Linux', 'desktop'],
];

/** One second's clicks as the click counter hands them to the store: counts per link, and visits. */
function batchOf(links, visits) {
  const at = Math.floor(Date.now() / 1000);
  const counts = new Map();
  const rows = [];
  for (let i = 0; i < CLICKS; i++) {
    const codeKey = codeAt(Math.floor(Math.random() * links));
    counts.set(codeKey, (counts.get(codeKey) ?? 0) + 1);
    if (!visits) continue;
    const [browser, os, device] = BROWSERS[i % BROWSERS.length];
    const referrer = REFERRERS[i % REFERRERS.length];
    rows.push({ codeKey, at, referrer, country: 'KR', userAgent: `${browser}/131.0`, browser, os, device, bot: false });
  }
  const batch = { day: Math.floor(Date.now() / DAY_MS), codeKeys: [...counts.keys()], counts: [...counts.values()] };
  return visits ? { ...batch, visits: rows } : batch;
}

/** Median CPU µs per click of `BATCHES` batches written to a fresh copy of a `links`-link file. */
async function measure(links, visits) {
  const seeded = join(dir, `${links}.db`);
  if (!existsSync(seeded)) seed(seeded, links);
  const path = join(dir, `${links}-${visits ? 'visits' : 'clicks'}.db`);
  copyFileSync(seeded, path);
  const store = createSqliteLinkStore(path);
  const perClick = [];
  try {
    for (let b = 0; b < WARMING + BATCHES; b++) {
      const batch = batchOf(links, visits);
      const before = process.cpuUsage();
      await store.addClicks(batch);
      const used = process.cpuUsage(before);
      if (b >= WARMING) perClick.push((used.user + used.system) / CLICKS);
    }
  } finally {
    await store.close();
  }
  perClick.sort((a, b) => a - b);
  return perClick[Math.floor(perClick.length / 2)];
}

try {
  console.log(`SQLite store, ${CLICKS.toLocaleString('en')} clicks a batch, ${BATCHES} batches, medians\n`);
  console.log('| visits | µs per click, 1k links | µs per click, 1M links | 1k ÷ 1M |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const visits of [false, true]) {
    const small = await measure(1_000, visits);
    const large = await measure(1_000_000, visits);
    console.log(
      `| ${visits ? 'on' : 'off'} | ${small.toFixed(1)} | ${large.toFixed(1)} | ${(small / large).toFixed(2)} |`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
