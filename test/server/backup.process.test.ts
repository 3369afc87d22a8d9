import { execFile } from 'node:child_process';
import { existsSync, linkSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { type Acknowledged, startWriteLoad } from './backup-load.js';
import { useServerProcesses } from './use-server-processes.js';

const ADMIN_KEY = 'backup-test-administrator-key';

/** Runs `npm run --silent backup -- ...args` as a user would, with this DATABASE_URL. */
async function backup(databaseUrl: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)('npm', ['run', '--silent', 'backup', '--', ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATABASE_URL: databaseUrl },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const waitFor = async (condition: () => boolean | Promise<boolean>) => {
  for (let tries = 0; tries < 100 && !(await condition()); tries++) await new Promise((done) => setTimeout(done, 50));
};

describe('npm run backup', () => {
  const { start, freshDb } = useServerProcesses('backup');

  it('copies a SQLite database under write load: a server on the copy serves every link acknowledged before', async () => {
    const live = freshDb();
    const copy = join(live, '..', 'backup-copy.db');
    const server = await start({ DATABASE_URL: `sqlite:${live}`, API_KEY: ADMIN_KEY });
    const made = await fetch(`${server.origin}/api/v1/keys`, {
      method: 'POST',
      headers: { 'X-API-Key': ADMIN_KEY },
      body: JSON.stringify({ name: 'alice' }),
    });
    const aliceKey = (await made.json()).data.key as string;

    const load = startWriteLoad(server.origin, aliceKey);
    await waitFor(() => load.acknowledged.length >= 100);
    // Clicks on the first link, written (the batch each second) before the backup begins.
    const clicked = load.acknowledged[0] as Acknowledged;
    const clicksOf = async (origin: string, code: string) =>
      (await (await fetch(`${origin}/api/v1/links/${code}`, { headers: { 'X-API-Key': aliceKey } })).json()).data
        .clicks as number;
    await waitFor(async () => (await clicksOf(server.origin, clicked.code)) > 0);
    const clicksBefore = await clicksOf(server.origin, clicked.code);
    const before = [...load.acknowledged];
    const sentBefore = load.sent();

    const result = await backup(`sqlite:${live}`, copy);
    const sentDuring = load.sent() - sentBefore;
    await load.stop();
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    // The backup ran while requests were being answered, not before or after them.
    expect(sentDuring).toBeGreaterThan(0);
    expect(statSync(copy).mode & 0o777).toBe(0o600);

    const db = new Database(copy, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();

    await server.stop();
    const restored = await start({ DATABASE_URL: `sqlite:${copy}`, API_KEY: ADMIN_KEY });
    for (const link of before) {
      const answer = await fetch(`${restored.origin}/${link.code}`, { method: 'HEAD', redirect: 'manual' });
      expect(answer.status, link.code).toBe(302);
      expect(answer.headers.get('location')).toBe(link.target);
    }
    const me = await fetch(`${restored.origin}/api/v1/me`, { headers: { 'X-API-Key': aliceKey } });
    expect((await me.json()).data).toEqual({ name: 'alice', admin: false });
    expect(await clicksOf(restored.origin, clicked.code)).toBeGreaterThanOrEqual(clicksBefore);
  }, 120_000);

  it('refuses to replace an existing file unless told to, and then replaces it whole', async () => {
    const live = freshDb();
    const server = await start({ DATABASE_URL: `sqlite:${live}` });
    await fetch(`${server.origin}/api/v1/shorten`, {
      method: 'POST',
      body: JSON.stringify({ original_url: 'https://example.com/kept', custom_code: 'kept' }),
    });
    const target = join(live, '..', 'existing.db');
    writeFileSync(target, 'an earlier backup');

    const refused = await backup(`sqlite:${live}`, target);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('exists already');
    expect(refused.stderr).toContain('--force');
    expect(readFileSync(target, 'utf8')).toBe('an earlier backup');

    expect(await backup(`sqlite:${live}`, target, '--force')).toEqual({ code: 0, stdout: '', stderr: '' });
    const db = new Database(target, { readonly: true });
    expect(db.prepare('SELECT original_url FROM links WHERE code = ?').pluck().get('kept')).toBe(
      'https://example.com/kept',
    );
    db.close();
  });

  it('refuses the live database and its -wal file by any path (a linked folder, a hard link), touching nothing', async () => {
    const live = freshDb();
    const server = await start({ DATABASE_URL: `sqlite:${live}`, API_KEY: ADMIN_KEY });
    const made = await fetch(`${server.origin}/api/v1/shorten`, {
      method: 'POST',
      headers: { 'X-API-Key': ADMIN_KEY },
      body: JSON.stringify({ original_url: 'https://example.com/kept', custom_code: 'kept' }),
    });
    expect(made.status).toBe(201);
    expect(existsSync(`${live}-wal`)).toBe(true); // the server has the database open in WAL mode
    const linkedFolder = join(mkdtempSync(join(tmpdir(), 'linklet-backup-link-')), 'data');
    symlinkSync(dirname(live), linkedFolder);
    const hardLink = join(dirname(live), 'hard-link.db');
    linkSync(live, hardLink);
    const { ino } = statSync(live);

    for (const [destination, what] of [
      [live, 'the database itself'],
      [join(linkedFolder, basename(live)), 'the database itself'],
      [hardLink, 'the database itself'],
      [`${live}-wal`, "the database's -wal file"],
      [join(linkedFolder, `${basename(live)}-shm`), "the database's -shm file"],
    ] as const) {
      const refused = await backup(`sqlite:${live}`, destination, '--force');
      expect(refused.code, destination).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toBe(
        `backup: ${destination} is ${what} (${live}); a backup written there would corrupt it. Write the backup to another file, outside the database's own files.\n`,
      );
    }

    expect(statSync(live).ino).toBe(ino);
    const answer = await fetch(`${server.origin}/kept`, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    const again = await fetch(`${server.origin}/api/v1/shorten`, {
      method: 'POST',
      headers: { 'X-API-Key': ADMIN_KEY },
      body: JSON.stringify({ original_url: 'https://example.com/after', custom_code: 'after' }),
    });
    expect(again.status).toBe(201);
    await server.stop();
    const db = new Database(live, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.prepare('SELECT code FROM links ORDER BY code').pluck().all()).toEqual(['after', 'kept']);
    db.close();
  }, 120_000);

  it('says what to do for PostgreSQL, a missing database and a missing FILE', async () => {
    const postgres = await backup('postgres://postgres@127.0.0.1:5432/test', join(freshDb(), '..', 'pg.db'));
    expect(postgres.code).toBe(1);
    expect(postgres.stderr).toContain('pg_dump');

    const missing = freshDb();
    const absent = await backup(`sqlite:${missing}`, join(missing, '..', 'absent-copy.db'));
    expect(absent.code).toBe(1);
    expect(absent.stderr).toContain('There is no SQLite database');
    expect(existsSync(missing)).toBe(false);

    const existing = freshDb();
    new Database(existing).close();
    const noFolder = join(existing, '..', 'no-such-folder');
    const unwritable = await backup(`sqlite:${existing}`, join(noFolder, 'x.db'));
    expect(unwritable.code).toBe(1);
    expect(unwritable.stderr).toBe(
      `backup: The folder ${noFolder} does not exist; create it (mkdir -p) or pick another path for FILE.\n`,
    );

    const usage = await backup(`sqlite:${freshDb()}`);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: npm run --silent backup -- FILE');
  });
});
