import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { type RunningServer, type StartOptions, startServer } from '../../scripts/server-process.mjs';

/**
 * For a test file that starts server processes: a folder of fresh SQLite files (removed after
 * the file) and a `start` whose servers are stopped after each test, so a failed test leaves no
 * process behind.
 */
export function useServerProcesses(name: string) {
  const dir = mkdtempSync(join(tmpdir(), `linklet-${name}-`));
  let dbCount = 0;
  const running: RunningServer[] = [];
  const stopAll = async () => {
    await Promise.all(running.splice(0).map((server) => server.stop()));
  };
  afterEach(stopAll);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    /** A path for a new SQLite file in this file's folder. */
    freshDb: () => join(dir, `links-${++dbCount}.db`),
    async start(env: Record<string, string>, options?: StartOptions): Promise<RunningServer> {
      const server = await startServer(env, options);
      running.push(server);
      return server;
    },
    /** Stops every server started so far (each test's end does it too). */
    stopAll,
  };
}
