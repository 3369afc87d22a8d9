import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SQLITE_MIGRATIONS } from '../../server/stores/sqlite/sqlite-migrations.js';
import { makeOldSqlite } from '../contract/legacy-schemas.js';

const dir = mkdtempSync(join(tmpdir(), 'linklet-sqlite-race-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A process that opens the built SQLite store on `path` and prints the steps it applied. */
function opener(path: string): { child: ChildProcess; output: Promise<string>; ready: Promise<unknown> } {
  const script = `
    const { createSqliteLinkStore } = await import(${JSON.stringify(resolve('dist/server/stores/sqlite/sqlite-link-store.js'))});
    const steps = [];
    console.log('opening');
    const store = createSqliteLinkStore(${JSON.stringify(path)}, {
      busyTimeoutMs: 60000,
      onMigrated: (step) => steps.push(step.version),
    });
    await store.close();
    console.log(JSON.stringify(steps));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let text = '';
  child.stdout?.on('data', (chunk) => {
    text += chunk;
  });
  const ready = new Promise((resolveReady) => {
    const check = () => (text.includes('opening') ? resolveReady(undefined) : setTimeout(check, 20));
    check();
  });
  return { child, ready, output: once(child, 'exit').then(() => text) };
}

describe('processes starting together on an old SQLite file', () => {
  it('apply each step once: the others wait for the write lock and find it done', async () => {
    const path = join(dir, 'links.db');
    const old = makeOldSqlite(path, 1);
    old.prepare('INSERT INTO links VALUES (?, ?, ?, ?, ?)').run('keep', 'Keep', 'https://example.com/', 1, 2e12);
    old.close();
    // Held until all three are waiting for it, so they all meet the file at schema 1.
    const holder = new Database(path);
    holder.exec('BEGIN IMMEDIATE');
    const openers = [opener(path), opener(path), opener(path)];
    await Promise.all(openers.map(({ ready }) => ready));
    await new Promise((wait) => setTimeout(wait, 300));
    holder.exec('COMMIT');
    holder.close();

    const outputs = await Promise.all(openers.map(({ output }) => output));
    const steps = outputs.flatMap((text) => JSON.parse(text.split('\n').filter(Boolean).at(-1) ?? '[]') as number[]);
    expect(steps.sort((a, b) => a - b)).toEqual(SQLITE_MIGRATIONS.map((_, index) => index + 1).slice(1));
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SQLITE_MIGRATIONS.length);
    expect(db.prepare('SELECT id, code FROM links').all()).toEqual([{ id: 1, code: 'Keep' }]);
    db.close();
  });
});
