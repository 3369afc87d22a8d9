import { defineConfig } from '@playwright/test';
import type { EngineOption } from './test/e2e/cross-browser/fixtures.js';

// End-to-end tests of the browser extension in real browsers (see test/e2e/README.md). Vitest runs
// `*.test.ts`; these are `*.spec.ts`, so neither runner picks up the other's files.
export default defineConfig<EngineOption>({
  testDir: 'test/e2e',
  // The README's screenshots are `*.screenshot.ts`, taken by `npm run screenshots` (their own config).
  testMatch: '**/*.spec.ts',
  // Builds what the tests drive; afterwards reports tests that wrote into the repository (fails under CI).
  globalSetup: ['./test/e2e/global-setup.ts', './test/guard-tracked-files.ts'],
  // Two browsers at a time on this two-core machine (14.5 minutes with one). The earlier releases'
  // update test (test/e2e/updates) runs alone, after the rest: beside another browser it once never
  // found today's background. Firefox's clipboard outlives a test, so its specs run one at a time.
  workers: 2,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  // The summary line and the no-skips rule match the Vitest run's (test/summary-reporter.ts).
  reporter: [['list'], ['./test/e2e/summary-reporter.ts']],
  // Generous: a test launches a browser and may start the companion server twice.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  outputDir: 'test-results',
  projects: [
    // Every spec: the shared ones (test/e2e/cross-browser) and those only Chromium can run (toolbar
    // click, CDP, service worker, offscreen document).
    { name: 'chromium', testIgnore: 'updates/**', use: { engine: 'chromium' } },
    // The shared specs in Firefox (MV2 build) over WebDriver BiDi.
    { name: 'firefox', testMatch: 'cross-browser/**/*.spec.ts', workers: 1, use: { engine: 'firefox' } },
    // Earlier releases' builds updated in place to today's, once every other browser has closed.
    {
      name: 'updates',
      testMatch: 'updates/**/*.spec.ts',
      dependencies: ['chromium', 'firefox'],
      workers: 1,
      use: { engine: 'chromium' },
    },
  ],
});
