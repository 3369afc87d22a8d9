import { configDefaults, defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

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
        // Core, stores, API and real server processes, on Node.
        extends: true,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          // The extension has its own project; test/e2e is Playwright's (`*.spec.ts`), never vitest's.
          exclude: [...configDefaults.exclude, 'test/extension/**', 'test/e2e/**'],
          globalSetup: ['test/server/build-server.ts'],
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
        },
      },
    ],
  },
});
