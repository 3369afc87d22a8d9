import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

// Membership is by name, so a new test lands in the right loop without editing this file:
// - in-process tests (the core's rules, the handler, the store contract over the in-memory and
//   SQLite stores and their wrappers, the server's HTTP layer, the shared browser UI) live in
//   these folders and run in `npm run test:quick`;
// - a test there that starts a process (the built server, a script) says so in its name,
//   `*.process.test.ts`, and so do tests that need PostgreSQL's contract (`postgres-*`) or Redis
//   (`redis-*`).
// A process test misnamed as in-process fails in the quick loop, which never builds the server.
const IN_PROCESS_FOLDERS = ['unit', 'api', 'contract', 'server', 'ui'];
const UNIT_TESTS = [`test/{${IN_PROCESS_FOLDERS.join(',')}}/**/*.test.ts`];
const NEEDS_OUTSIDE = ['test/**/*.process.test.ts', 'test/contract/postgres-*.test.ts', 'test/**/redis-*.test.ts'];

// Reports (under CI: fails) a run whose tests changed the working tree: `npm test` leaves a clone clean.
const GUARD_TRACKED_FILES = 'test/guard-tracked-files.ts';

export default defineConfig({
  test: {
    // Server tests start real processes; give them room on a 2-core machine.
    testTimeout: 20_000,
    // Vitest's default is one file at a time on two cores (cores - 1). Most files here wait on a
    // server process, PostgreSQL or a build, so two at a time keep both cores busy: the run took
    // 200–237 s against about 350 (warm caches), which keeps `.ci/run` inside its 30 minutes.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    hookTimeout: 60_000,
    // A skipped or focused test would hide a gap: fail the run instead.
    allowOnly: false,
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      {
        // Fast and self-contained: no PostgreSQL, no server process, no browser.
        extends: true,
        test: {
          name: 'unit',
          include: UNIT_TESTS,
          exclude: [...configDefaults.exclude, ...NEEDS_OUTSIDE],
          globalSetup: [GUARD_TRACKED_FILES],
        },
      },
      {
        // Real server processes (the built server), PostgreSQL, races, faults, hostile input, builds.
        extends: true,
        test: {
          name: 'node',
          // The other folders (hostile, races, faults, fuzz, build) start processes throughout; the
          // extension has its own project, test/e2e is Playwright's (`*.spec.ts`), and
          // test/container is opt-in (`npm run test:container`, vitest.container.config.ts).
          include: [
            ...NEEDS_OUTSIDE,
            `test/!(${[...IN_PROCESS_FOLDERS, 'extension', 'e2e', 'container'].join('|')})/**/*.test.ts`,
          ],
          globalSetup: ['test/server/build-server.ts', GUARD_TRACKED_FILES],
        },
      },
      {
        // The extension's modules, with WXT's fake browser (`wxt/browser`) and fake-indexeddb.
        extends: true,
        plugins: [WxtVitest()],
        test: {
          name: 'extension',
          include: ['test/extension/**/*.test.ts'],
          setupFiles: ['test/extension/setup.ts'],
          globalSetup: [GUARD_TRACKED_FILES],
        },
      },
    ],
  },
});
