import { configDefaults, defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

// Tests that need neither a built server, a server process nor PostgreSQL: the core's rules, the
// handler, the store contract over the in-memory and SQLite stores and their wrappers, and the
// server's HTTP layer in-process. `npm run test:quick` runs these and the extension's unit tests.
const UNIT_TESTS = [
  'test/unit/**/*.test.ts',
  'test/api/**/*.test.ts',
  // Every contract suite but PostgreSQL's (it needs a database server).
  'test/contract/!(postgres-)*.test.ts',
  'test/server/link-cache.test.ts',
  'test/server/group-concurrent.test.ts',
  'test/server/fast-path.test.ts',
  'test/server/shorten-fast-path.test.ts',
  'test/server/writer-thread.test.ts',
  'test/server/click-counter.test.ts',
  'test/server/click-paths.test.ts',
];

// Reports (under CI: fails) a run whose tests changed the working tree: `npm test` leaves a clone clean.
const GUARD_TRACKED_FILES = 'test/guard-tracked-files.ts';

export default defineConfig({
  test: {
    // Server tests start real processes; give them room on a 2-core machine.
    testTimeout: 20_000,
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
          globalSetup: [GUARD_TRACKED_FILES],
        },
      },
      {
        // Real server processes (the built server), PostgreSQL, races, faults, hostile input, builds.
        extends: true,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          // The extension has its own project; test/e2e is Playwright's (`*.spec.ts`), never vitest's.
          exclude: [...configDefaults.exclude, ...UNIT_TESTS, 'test/extension/**', 'test/e2e/**'],
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
