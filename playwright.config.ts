import { defineConfig } from '@playwright/test';

// End-to-end tests of the browser extension in a real Chromium (see test/e2e/README.md). Vitest runs
// `*.test.ts`; these are `*.spec.ts`, so neither runner picks up the other's files.
export default defineConfig({
  testDir: 'test/e2e',
  // The README's screenshots are `*.screenshot.ts`, taken by `npm run screenshots` (their own config).
  testMatch: '**/*.spec.ts',
  // Builds what the tests drive; afterwards reports tests that wrote into the repository (fails under CI).
  globalSetup: ['./test/e2e/global-setup.ts', './test/guard-tracked-files.ts'],
  // One Chromium at a time: the machine has two cores, and each test starts its own browser.
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  // The summary line and the no-skips rule match the Vitest run's (test/summary-reporter.ts).
  reporter: [['list'], ['./test/e2e/summary-reporter.ts']],
  // Generous: a test launches Chromium and may start the companion server twice.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  outputDir: 'test-results',
});
