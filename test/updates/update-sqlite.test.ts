import { beforeAll, describe, it } from 'vitest';
import { ensureRelease } from '../../scripts/release-build.mjs';
import { useServerProcesses } from '../server/use-server-processes.js';
import { expireInSqlite } from './expire-link.js';
import { BUILD_TIMEOUT_MS, RELEASES, runUpdate, UPDATE_TIMEOUT_MS } from './run-update.js';

const { start, freshDb } = useServerProcesses('updates-sqlite');

describe.each(RELEASES)('updating from release $commit on SQLite', ({ commit, features }) => {
  let releaseDir = '';
  beforeAll(async () => {
    releaseDir = await ensureRelease(commit);
  }, BUILD_TIMEOUT_MS);

  it(
    'keeps, lists, opens and counts every link made before, and takes new creates',
    async () => {
      const file = freshDb();
      await runUpdate({
        commit,
        releaseDir,
        features,
        env: { DATABASE_URL: `sqlite:${file}` },
        start,
        expire: (code) => expireInSqlite(file, code),
      });
    },
    UPDATE_TIMEOUT_MS,
  );
});
