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
  // One browser at a time: the machine has two cores, and each test starts its own browser. Two
  // workers took the run from 7.9 to 6.0–6.2 minutes, but in one run of three an update test
  // (test/e2e/updates), with another test's browser beside it, never found today's background.
  workers: 1,
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
    { name: 'chromium', use: { engine: 'chromium' } },
    // The shared specs in Firefox (MV2 build) over WebDriver BiDi.
    { name: 'firefox', testMatch: 'cross-browser/**/*.spec.ts', use: { engine: 'firefox' } },
  ],
});
