import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../scripts/server-process.mjs';
import { useServerProcesses } from './use-server-processes.js';

// Hostile imports against a real server process over HTTP: a large file of invalid rows must not
// hold up other requests nor make a huge answer, and an import must not create past the rate
// limits. (scripts/measure-import-abuse.mjs measures the same with 10 MiB files.)

const ADMIN = 'admin-key-for-import-abuse-tests';
const { start, freshDb } = useServerProcesses('import-abuse');
const serve = (env: Record<string, string> = {}) =>
  start({ DATABASE_URL: `sqlite:${freshDb()}`, API_KEY: ADMIN, BASE_URL: 'https://sho.rt', ...env });

// biome-ignore lint/suspicious/noExplicitAny: answers are read as plain JSON.
type Json = any;

/** POSTs an import; `sent` settles once the whole file is written, `answer` with the answer. */
function postImport(server: RunningServer, body: string, type = 'text/csv') {
  let sent: () => void = () => {};
  const written = new Promise<void>((resolve) => {
    sent = resolve;
  });
  const answer = new Promise<{ status: number; headers: Record<string, unknown>; bytes: number; body: Json }>(
    (resolve, reject) => {
      const req = request(
        `${server.origin}/api/v1/links/import`,
        { method: 'POST', headers: { 'X-API-Key': ADMIN, 'Content-Type': type } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: text.length, body: JSON.parse(text) });
          });
        },
      );
      req.on('error', reject);
      req.end(body, sent);
    },
  );
  return { written, answer };
}

const links = (from: number, count: number) =>
  `code,original_url\n${Array.from({ length: count }, (_, at) => `v${from + at},https://example.com/${from + at}`).join('\n')}\n`;

describe('a large import of invalid rows', () => {
  it('lets a redirect through while it runs, and answers with counts and the first 1,000 rows', async () => {
    const server = await serve();
    const probe = await fetch(`${server.origin}/api/v1/shorten`, {
      method: 'POST',
      headers: { 'X-API-Key': ADMIN, 'Content-Type': 'application/json' },
      body: '{"original_url":"https://example.com/probe","custom_code":"probe"}',
    });
    expect(probe.status).toBe(201);
    const rows = 500_000;
    const order: string[] = [];
    const { written, answer } = postImport(server, `code,original_url\n${'x\n'.repeat(rows)}`);
    const imported = answer.then((result) => {
      order.push('import');
      return result;
    });
    await written;
    await new Promise((resolve) => setTimeout(resolve, 500)); // the server is reading the rows by now
    const redirect = await fetch(`${server.origin}/probe`, { redirect: 'manual' });
    order.push('redirect');
    expect(redirect.status).toBe(302);
    const result = await imported;
    expect(order).toEqual(['redirect', 'import']);
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({ invalid: rows, created: 0, results_omitted: rows - 1000 });
    expect(result.body.data.results).toHaveLength(1000);
    expect(result.bytes).toBeLessThan(256 * 1024);
  }, 180_000);
});

describe('the import budget under RATE_LIMIT_PER_MINUTE', () => {
  it('creates at most 10,000 links a minute by default: the rest are reported, then a 429', async () => {
    const server = await serve({ RATE_LIMIT_PER_MINUTE: '5' });
    const first = await postImport(server, links(0, 10_500)).answer;
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ created: 10_000, skipped: 500 });
    expect(first.body.data.retry_after_seconds).toBeGreaterThanOrEqual(1);
    expect(first.body.data.results.at(-1)).toMatchObject({ row: 10_500, status: 'skipped' });
    // What the answer acknowledged is there, and nothing more.
    const exported = await fetch(`${server.origin}/api/v1/links/export?format=json`, {
      headers: { 'X-API-Key': ADMIN },
    });
    expect(((await exported.json()) as Json).links).toHaveLength(10_000);

    const second = await postImport(server, links(20_000, 10)).answer;
    expect(second.status).toBe(429);
    expect(Number(second.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(second.body.message).toMatch(/10,000 links a minute/);
  }, 120_000);
});
