import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comparableRequest } from '../raw-http.js';
import { useServerProcesses } from '../server/use-server-processes.js';
import { createContractOracle } from './contract-oracle.js';
import { describeRequest, encodeRequest, type FuzzWorld, fuzzRequest } from './fuzz-requests.js';
import { exchangeRaw } from './raw-exchange.js';

// A fixed seed in CI, so a failure is the same failure on every run; `FUZZ_SEED=random` (or a
// number) and `FUZZ_RUNS=20000` explore further. The seed is printed either way.
const SEED = process.env.FUZZ_SEED === 'random' ? Date.now() % 2 ** 31 : Number(process.env.FUZZ_SEED ?? 20_261_123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const CONCURRENCY = 6;
const API_KEY = 'fuzz-key-0123456789abcdef';
const DAY = 86_400_000;

const servers = useServerProcesses('fuzz');

describe('the contract fuzzer', () => {
  it(`answers ${RUNS} generated raw HTTP/1.1 requests as the OpenAPI document says (seed ${SEED})`, async () => {
    const dbPath = servers.freshDb();
    const server = await servers.start({ DATABASE_URL: `sqlite:${dbPath}`, API_KEY });
    const { port, host } = new URL(server.origin);
    const served = await comparableRequest(server.origin, { method: 'GET', path: '/api/v1/openapi.json' });
    expect(served.status).toBe(200);
    const judge = createContractOracle(JSON.parse(served.body));

    const activeCodes = ['promo', '한글', 'Mixed_Case-1', 'ㅋㅋ', 'ruled'];
    const managedCodes = ['m-one', '관리', 'M_two', 'ㅎㅎ'];
    for (const code of [...activeCodes, ...managedCodes]) {
      const made = await comparableRequest(server.origin, {
        method: 'POST',
        path: '/api/v1/shorten',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': API_KEY },
        body: JSON.stringify({
          original_url: `https://example.com/${code}`,
          custom_code: code,
          // One link whose redirects go through rules, a (high) visit limit and query forwarding.
          ...(code === 'ruled' && {
            redirect_rules: [
              { target_url: 'https://example.com/ko', conditions: [{ type: 'language', value: 'ko' }] },
              { target_url: 'https://example.com/q', conditions: [{ type: 'any-value-query-param', key: 'q' }] },
            ],
            max_visits: 1_000_000,
            forward_query: true,
          }),
        }),
      });
      expect(made.status).toBe(201);
    }
    // An expired link, written as another process on the same database would (WAL allows it).
    const db = new Database(dbPath);
    const insert = db.prepare(
      'INSERT INTO links (code_key, code, original_url, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
    );
    for (const code of ['gone1', 'gone2']) {
      insert.run(code, code, 'https://example.com/gone', Date.now() - 8 * DAY, Date.now() - DAY);
    }
    db.close();

    const world: FuzzWorld = {
      host,
      apiKey: API_KEY,
      activeCodes,
      expiredCodes: ['gone1', 'GONE1'],
      managedCodes,
      managedExpiredCodes: ['gone2', 'GONE2'],
      recently: new Date(Date.now() - DAY).toISOString(),
    };
    const requests = fc.sample(fuzzRequest(world), { seed: SEED, numRuns: RUNS });
    const histogram = new Map<number | string, number>();
    const failures = new Map<string, string[]>();
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const request = requests[next++];
        if (request === undefined) break;
        const response = await exchangeRaw(Number(port), encodeRequest(request), request.method === 'HEAD');
        const key = response?.status ?? 'none';
        histogram.set(key, (histogram.get(key) ?? 0) + 1);
        for (const problem of judge(request, response)) {
          const cause = problem.replace(/\d+ body bytes/, 'N body bytes');
          const examples = failures.get(cause) ?? [];
          if (examples.length < 3) examples.push(`${describeRequest(request)} → ${response?.status ?? 'nothing'}`);
          failures.set(cause, examples);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    const statuses = [...histogram.entries()].sort(([a], [b]) => String(a).localeCompare(String(b)));
    console.log(
      `contract fuzzer: seed ${SEED}, ${requests.length} requests; statuses: ${statuses.map(([status, count]) => `${status}×${count}`).join(' ')}` +
        `\n  rerun: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} npx vitest run test/fuzz/contract-fuzz.test.ts`,
    );
    const report = [...failures.entries()].map(([cause, examples]) => `${cause}\n    ${examples.join('\n    ')}`);
    expect(report.length, `contract violations (seed ${SEED}):\n  ${report.join('\n  ')}\n`).toBe(0);
    // The run covered the document, not just its 400s.
    for (const status of [200, 201, 302, 400, 401, 403, 404, 405, 410, 413])
      expect(histogram.get(status)).toBeGreaterThan(0);
  }, 180_000);
});
