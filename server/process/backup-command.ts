import { resolve } from 'node:path';
import { BackupError, backupSqlite } from '../stores/sqlite/sqlite-backup.js';
import { ConfigError, loadConfig } from './config.js';

const USAGE = `Usage: npm run --silent backup -- FILE [--force]
  Writes a consistent copy of the SQLite database to FILE while servers keep serving.
  FILE must not exist yet; --force replaces it (only once the new copy is complete).
Uses DATABASE_URL, as the server does. For PostgreSQL use pg_dump (see docs/backups.md).`;

class UsageError extends Error {}

/**
 * The backup command: a copy of the server's SQLite database taken while it runs, so backups
 * need no downtime. Prints nothing when it succeeds (for cron and scripts); errors go to stderr
 * with a non-zero exit.
 */
function main(args: string[]): void {
  const force = args.includes('--force');
  const files = args.filter((arg) => arg !== '--force');
  const file = files[0];
  if (files.length !== 1 || file === undefined || file.startsWith('-')) throw new UsageError(USAGE);

  const config = loadConfig(process.env);
  if (config.database.kind !== 'sqlite') {
    throw new BackupError(
      'DATABASE_URL names PostgreSQL; this command copies SQLite only. Back PostgreSQL up with ' +
        'pg_dump, e.g. pg_dump --format=custom --file=linklet.dump "$DATABASE_URL" (see docs/backups.md).',
    );
  }
  // npm runs scripts in the project folder; a relative FILE means where the user typed it.
  const destination = resolve(process.env.INIT_CWD ?? process.cwd(), file);
  backupSqlite(resolve(config.database.path), destination, { overwrite: force });
}

try {
  main(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  const message =
    error instanceof ConfigError
      ? `${error.message}\nSee README.md, "Configuration".`
      : String(error instanceof Error ? error.message : error);
  process.stderr.write(`backup: ${message}\n`);
  process.exit(1);
}
