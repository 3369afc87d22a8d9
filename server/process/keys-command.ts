import { generateApiKey, hashApiKey } from '../../core/management/owners/api-keys.js';
import { ownerNameFor, parseOwnerName } from '../../core/management/owners/key-routes.js';
import { formatIsoDate } from '../../core/rules/dates.js';
import { openLinkStore } from '../stores/open-link-store.js';
import { ConfigError, loadConfig } from './config.js';

const USAGE = `Usage: npm run --silent keys -- <command>
  create --name NAME   make a key for the owner NAME (made if new); the key is printed alone on the last line
  list                 every key: id, owner, made, last used, revoked
  revoke ID            revoke a key; every server on the database refuses it at once
Uses DATABASE_URL, as the server does, and may run while servers use the same database.`;

class UsageError extends Error {}

/** `[name]` of `create --name NAME` (or `--name=NAME`). */
function nameOf(args: string[]): string {
  const at = args.findIndex((arg) => arg === '--name' || arg.startsWith('--name='));
  const value = at === -1 ? undefined : args[at]?.startsWith('--name=') ? args[at]?.slice(7) : args[at + 1];
  try {
    return parseOwnerName({ name: value });
  } catch (error) {
    throw new UsageError(`create needs --name NAME: ${(error as Error).message}`);
  }
}

/**
 * The keys command: makes, lists and revokes owner keys straight in the database (no server
 * needed, and none disturbed: SQLite's busy timeout and PostgreSQL's own locking let it write
 * while servers run). A key is printed once, alone on the last line, so scripts can take it with
 * `tail -n 1`; only its SHA-256 is stored.
 */
async function main(args: string[]): Promise<void> {
  const [command, ...rest] = args;
  if (command !== 'create' && command !== 'list' && command !== 'revoke') throw new UsageError(USAGE);
  const name = command === 'create' ? nameOf(rest) : undefined;
  const id = command === 'revoke' ? rest[0] : undefined;
  if (command === 'revoke' && !/^\d{1,15}$/.test(id ?? ''))
    throw new UsageError('revoke needs the key id, e.g. revoke 3 (see list).');

  const config = loadConfig(process.env);
  const store = await openLinkStore(config.database, { poolSize: 1 });
  try {
    if (name !== undefined) {
      const key = generateApiKey();
      const made = await store.createKey(await ownerNameFor(name, store), await hashApiKey(key), Date.now());
      process.stdout.write(
        `Key ${made.id} made for ${made.name}. It is shown only now; keep it somewhere safe:\n${key}\n`,
      );
    } else if (command === 'list') {
      const keys = await store.listKeys();
      if (keys.length === 0)
        process.stdout.write('No keys yet; make one with: npm run --silent keys -- create --name NAME\n');
      for (const key of keys) {
        const lastUsed = key.lastUsedAt === undefined ? 'never used' : `last used ${formatIsoDate(key.lastUsedAt)}`;
        process.stdout.write(
          `${key.id}\t${key.name}\tmade ${formatIsoDate(key.createdAt)}\t${lastUsed}\t${key.revoked ? 'revoked' : 'active'}\n`,
        );
      }
    } else if (!(await store.revokeKey(Number(id), Date.now()))) {
      process.stderr.write(`There is no key with id ${id}; list shows the ids.\n`);
      process.exitCode = 1;
    } else {
      process.stdout.write(`Key ${id} revoked.\n`);
    }
  } finally {
    await store.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  const message =
    error instanceof ConfigError
      ? `${error.message}\nSee docs/operations.md, "Settings".`
      : String(error instanceof Error ? error.message : error);
  process.stderr.write(`keys: ${message}\n`);
  process.exit(1);
});
