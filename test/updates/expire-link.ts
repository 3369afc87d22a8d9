import Database from 'better-sqlite3';
import pg from 'pg';

// No release lets a client make a link that is already expired, and waiting a day is no test:
// the row's expiry is moved into the past while no server runs, in whatever type the release
// stored it (epoch ms, or timestamptz on PostgreSQL).
const AN_HOUR_AGO = () => Date.now() - 3_600_000;

/** Ends the expiry of `code` in a SQLite file written by any release. */
export function expireInSqlite(file: string, code: string): void {
  const db = new Database(file);
  try {
    const changed = db
      .prepare(
        `UPDATE links SET expires_at = CASE typeof(expires_at)
           WHEN 'integer' THEN ? ELSE strftime('%Y-%m-%dT%H:%M:%fZ', ? / 1000.0, 'unixepoch') END
         WHERE code = ?`,
      )
      .run(AN_HOUR_AGO(), AN_HOUR_AGO(), code).changes;
    if (changed !== 1) throw new Error(`expected one SQLite row for code ${code}, changed ${changed}`);
  } finally {
    db.close();
  }
}

/** Ends the expiry of `code` in the `links` table of a PostgreSQL schema written by any release. */
export async function expireInPostgres(connectionString: string, schema: string, code: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const type = await client.query<{ data_type: string }>(
      `SELECT data_type FROM information_schema.columns
         WHERE table_schema = $1 AND table_name = 'links' AND column_name = 'expires_at'`,
      [schema],
    );
    const value = type.rows[0]?.data_type === 'bigint' ? String(AN_HOUR_AGO()) : new Date(AN_HOUR_AGO()).toISOString();
    const changed = await client.query(
      `UPDATE ${pg.escapeIdentifier(schema)}.links SET expires_at = $1 WHERE code = $2`,
      [value, code],
    );
    if (changed.rowCount !== 1)
      throw new Error(`expected one PostgreSQL row for code ${code}, changed ${changed.rowCount}`);
  } finally {
    await client.end();
  }
}
