import { describe, expect, it } from 'vitest';
import { SQLITE_MIGRATIONS } from '../../server/stores/sqlite/sqlite-migrations.js';
import { makeOldSqlite } from '../contract/legacy-schemas.js';
import { useServerProcesses } from './use-server-processes.js';

const LATEST = SQLITE_MIGRATIONS.length;
const { start, freshDb } = useServerProcesses('migration-log');

/** The start's lines about the database's schema, as the operator reads them. */
async function schemaLines(path: string): Promise<string[]> {
  const server = await start({ DATABASE_URL: `sqlite:${path}` });
  await server.stop();
  return server.logs.map((entry) => String(entry.msg)).filter((msg) => /^database (created|upgraded)/.test(msg));
}

describe('what a start says of the database it opened', () => {
  it('a new database: one line that it was created, at the schema this server writes; nothing the next time', async () => {
    const path = freshDb();
    expect(await schemaLines(path)).toEqual([`database created at schema ${LATEST}`]);
    expect(await schemaLines(path)).toEqual([]);
  });

  it("an earlier release's database: each step that ran, by number and what it added", async () => {
    const path = freshDb();
    makeOldSqlite(path, 3).close();
    const expected = SQLITE_MIGRATIONS.slice(3).map(({ what }, i) => `database upgraded to schema ${i + 4}: ${what}`);
    expect(await schemaLines(path)).toEqual(expected);
  });
});
