import type { OnMigrated } from '../stores/schema-version.js';
import type { Logger } from './logger.js';

/**
 * The log lines of a database's migrations: one per step for a database an earlier release made
 * (which step ran is what an operator checks after an update), and one line in all for a new
 * database, which every step makes in turn: "upgraded to schema 1…10" on a first `npm start`
 * read as if something old had been there.
 */
export function migrationLogOf(logger: Pick<Logger, 'info'>): OnMigrated {
  let creating = false;
  return ({ version, what, latest }) => {
    // Only a database with nothing of Linklet's in it starts at schema 0: the first step makes it.
    if (version === 1) creating = true;
    if (!creating) logger.info({ schema: version }, `database upgraded to schema ${version}: ${what}`);
    else if (version === latest) logger.info({ schema: version }, `database created at schema ${version}`);
  };
}
