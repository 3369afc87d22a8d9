import { readFileSync } from 'node:fs';
import { Agent, get, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../scripts/server-process.mjs';
import { useServerProcesses } from './use-server-processes.js';

// A 10 MiB CSV whose one data record is a single huge field, posted to a real server while
// redirects go on: the import must answer with the record refused by its line, and the server
// must keep answering meanwhile without growing by a gigabyte. (Before records were bounded ahead
// of the parser, the doubled quotes held the server 25-54 s and grew it by 1-2 GB.)
// The bounds are far from what a fixed server does (a few ms of work a turn; under 1.5 s for the
// worst redirect, and 27 MiB, on a 2-core machine at load 18) and far below what the unbounded
// parser did (53 s to 20 min, 0.8-2.6 GB), so a busy machine does not make the test flaky.
// scripts/measure-import-abuse.mjs --csv-fields measures the same shapes.

const ADMIN = 'admin-key-for-csv-record-bound-tests';
const { start, freshDb } = useServerProcesses('csv-record-bound');
const HEADER = 'code,original_url\n';
const FIELD = 10 * 1024 * 1024 - 64 - HEADER.length - 3;
const MiB = 1024 * 1024;

const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

/** POSTs an import and parses its answer. */
function postImport(server: RunningServer, body: string) {
  return new Promise<{
    status: number;
    body: { data: Record<string, unknown> & { results: Array<{ message: string }> } };
  }>((resolve, reject) => {
    const req = request(
      `${server.origin}/api/v1/links/import`,
      { method: 'POST', headers: { 'X-API-Key': ADMIN, 'Content-Type': 'text/csv' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** One redirect of `url`: its status and how long it took (ms). */
function redirect(url: string, agent: Agent) {
  return new Promise<{ status: number; ms: number }>((resolve, reject) => {
    const started = performance.now();
    get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    }).on('error', reject);
  });
}

/** Runs `work` while redirects of `url` go one after another and the server's RSS is sampled. */
async function whileRedirecting<T>(server: RunningServer, url: string, work: () => Promise<T>) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const before = rssOf(server.pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(server.pid));
  }, 20);
  let running = true;
  const redirects: Array<{ status: number; ms: number }> = [];
  const loop = (async () => {
    while (running) {
      redirects.push(await redirect(url, agent));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  try {
    const result = await work();
    running = false;
    await loop;
    return { result, redirects, growthMiB: (peak - before) / MiB };
  } finally {
    running = false;
    clearInterval(sampler);
    agent.destroy();
  }
}

describe('a 10 MiB CSV of one huge field', () => {
  it.each([
    ['quoted, of doubled quotes', `${HEADER}"${'""'.repeat(Math.floor(FIELD / 2))}"\n`],
    ['unquoted', `${HEADER}${'a'.repeat(FIELD)}\n`],
    ['whose quote is never closed', `${HEADER}"${'a'.repeat(FIELD)}\n`],
  ])(
    '%s: refused by its line while every redirect is answered within ten seconds',
    async (_, body) => {
      const server = await start({ DATABASE_URL: `sqlite:${freshDb()}`, API_KEY: ADMIN, BASE_URL: 'https://sho.rt' });
      const made = await fetch(`${server.origin}/api/v1/shorten`, {
        method: 'POST',
        headers: { 'X-API-Key': ADMIN, 'Content-Type': 'application/json' },
        body: '{"original_url":"https://example.com/probe","custom_code":"probe"}',
      });
      expect(made.status).toBe(201);

      const run = await whileRedirecting(server, `${server.origin}/probe`, () => postImport(server, body));
      expect(run.result.status).toBe(200);
      expect(run.result.body.data).toMatchObject({ created: 0, invalid: 1 });
      expect(run.result.body.data.results[0]?.message).toMatch(
        /^The record on line 2 is longer than 131072 characters/,
      );
      expect(run.redirects.length).toBeGreaterThan(0);
      expect(run.redirects.every(({ status }) => status === 302)).toBe(true);
      expect(Math.max(...run.redirects.map(({ ms }) => ms))).toBeLessThan(10_000);
      expect(run.growthMiB).toBeLessThan(300);
    },
    120_000,
  );
});
