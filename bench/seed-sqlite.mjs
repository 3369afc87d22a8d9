import { openSqliteDatabase } from '../dist/server/stores/sqlite/sqlite-link-store.js';

const DAY_MS = 86_400_000;

/**
 * Adds `count` active links (expiring in 30 days) to the SQLite file at `path` (made if new),
 * straight into the database in one transaction: the benches seed a million links in seconds
 * this way, where creates through the API would take minutes. `linkAt(i)` gives the i-th link's code and URL;
 * `passwordHash`, when given, protects every link with it.
 */
export function seedSqliteLinks(path, count, linkAt, passwordHash = null) {
  const db = openSqliteDatabase(path);
  db.pragma('synchronous = OFF'); // seeding only; the server opens the file with FULL
  const insert = db.prepare(
    'INSERT INTO links (code_key, code, original_url, created_at, expires_at, password_hash) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const now = Date.now();
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const { code, url } = linkAt(i);
      insert.run(code, code, url, now, now + 30 * DAY_MS, passwordHash);
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

/** Makes the link under `code` in the SQLite file at `path` expired three days ago (a dead link's page). */
export function expireSqliteLink(path, code) {
  const db = openSqliteDatabase(path);
  db.prepare('UPDATE links SET expires_at = ? WHERE code_key = ?').run(Date.now() - 3 * DAY_MS, code);
  db.close();
}

/** Gives every link in the SQLite file at `path` these redirect rules (their stored JSON text). */
export function setSqliteRedirectRules(path, rulesText) {
  const db = openSqliteDatabase(path);
  db.prepare('UPDATE links SET redirect_rules = ?').run(rulesText);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}
