// Measures import and export on a real server process (the built server: run
// `npx tsc -p tsconfig.server.json` first) on a fresh SQLite file, and prints the figures:
//
// - import: 100,000 rows of Linklet's CSV export, sent as files of at most `IMPORT_FILE_ROWS`
//   rows (a 100,000-row export is larger than the 10 MiB an import takes): wall time and the
//   server's RSS growth;
// - export: 1,000,000 links (written straight into the database first) streamed as CSV and as
//   JSON: wall time, bytes, and the server's RSS growth while it streams.
//
// RSS is read from /proc/<pid>/status every 20 ms; growth is the peak minus the RSS just before.
// Not part of `npm test`: `node scripts/measure-porting.mjs [importRows] [exportLinks]`.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startServer, waitUntilIdle } from './server-process.mjs';

const IMPORT_ROWS = Number(process.argv[2] ?? 100_000);
const EXPORT_LINKS = Number(process.argv[3] ?? 1_000_000);
const IMPORT_FILE_ROWS = 50_000;
const ADMIN = 'admin-key-for-measuring';
const BASE_URL = 'https://sho.rt';
const MiB = 1024 * 1024;

const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

/** Runs `work` while sampling the server's RSS; its result, seconds taken and RSS growth. */
async function measured(pid, work) {
  const before = rssOf(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 20);
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rssOf(pid));
  return { result, seconds, growthMiB: (peak - before) / MiB, beforeMiB: before / MiB };
}

/** A Linklet CSV export of `count` links starting at `from`, as the export writes one. */
function linkletCsv(from, count) {
  const created = new Date(Date.now() - 86_400_000).toISOString();
  const expires = new Date(Date.now() + 30 * 86_400_000).toISOString();
  const lines = ['\ufeffcode,short_url,original_url,created_at,expiration_date,status,clicks'];
  for (let i = from; i < from + count; i++) {
    const code = `m${i.toString(36).padStart(6, '0')}`;
    lines.push(`${code},${BASE_URL}/${code}/,https://example.com/articles/${i},${created},${expires},active,0`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

const dir = mkdtempSync(join(tmpdir(), 'linklet-measure-'));
const env = (file) => ({ DATABASE_URL: `sqlite:${join(dir, file)}`, API_KEY: ADMIN, BASE_URL, LOG_LEVEL: 'warn' });
try {
  // Import.
  const importing = await startServer(env('import.db'), { log: 'discard' });
  const files = [];
  for (let from = 0; from < IMPORT_ROWS; from += IMPORT_FILE_ROWS) {
    files.push(linkletCsv(from, Math.min(IMPORT_FILE_ROWS, IMPORT_ROWS - from)));
  }
  const imported = await measured(importing.pid, async () => {
    let created = 0;
    for (const file of files) {
      const response = await fetch(`${importing.origin}/api/v1/links/import`, {
        method: 'POST',
        headers: { 'X-API-Key': ADMIN, 'Content-Type': 'text/csv' },
        body: file,
      });
      const body = await response.json();
      if (response.status !== 200) throw new Error(`import answered ${response.status}: ${body.message}`);
      created += body.data.created;
    }
    return created;
  });
  const fileMiB = files.reduce((sum, file) => sum + Buffer.byteLength(file), 0) / files.length / MiB;
  console.log(
    `import: ${imported.result} of ${IMPORT_ROWS} rows created in ${imported.seconds.toFixed(2)} s ` +
      `(${files.length} files of ~${fileMiB.toFixed(1)} MiB); server RSS ${imported.beforeMiB.toFixed(0)} MiB before, ` +
      `grew ${imported.growthMiB.toFixed(1)} MiB at most`,
  );
  await importing.stop();

  // Export: the links go straight into a migrated database, then a fresh server streams them.
  const migrating = await startServer(env('export.db'), { log: 'discard' });
  await migrating.stop();
  const db = new Database(join(dir, 'export.db'));
  const insert = db.prepare(
    `INSERT INTO links (code_key, code, original_url, created_at, expires_at, owner_id, updated_at, disabled)
     VALUES (?, ?, ?, ?, ?, NULL, ?, 0)`,
  );
  const now = Date.now();
  db.transaction(() => {
    for (let i = 0; i < EXPORT_LINKS; i++) {
      const code = `e${i.toString(36).padStart(6, '0')}`;
      insert.run(code, code, `https://example.com/articles/${i}?ref=measure`, now - i, now + 86_400_000, now - i);
    }
  })();
  db.close();
  const exporting = await startServer(env('export.db'), { log: 'discard' });
  await waitUntilIdle(exporting.pid); // its link cache warmed
  for (const format of ['csv', 'json']) {
    const streamed = await measured(exporting.pid, async () => {
      const response = await fetch(`${exporting.origin}/api/v1/links/export?format=${format}`, {
        headers: { 'X-API-Key': ADMIN },
      });
      let bytes = 0;
      let lines = 0;
      for await (const chunk of response.body) {
        bytes += chunk.byteLength;
        for (const byte of chunk) if (byte === 10) lines++;
      }
      return { bytes, lines };
    });
    console.log(
      `export ${format}: ${EXPORT_LINKS} links, ${(streamed.result.bytes / MiB).toFixed(0)} MiB, ` +
        `${streamed.result.lines} lines in ${streamed.seconds.toFixed(2)} s; server RSS ` +
        `${streamed.beforeMiB.toFixed(0)} MiB before, grew ${streamed.growthMiB.toFixed(1)} MiB at most`,
    );
  }
  await exporting.stop();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
