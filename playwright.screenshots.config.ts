import { defineConfig } from '@playwright/test';
import testConfig from './playwright.config.js';

// `npm run screenshots`: the README's pictures, taken from the real extension. Same browser and
// builds as the end-to-end tests, but only `*.screenshot.ts`, and without the guard that reports a
// test run for writing into the repository (writing docs/*.png is the point here).
export default defineConfig({
  ...testConfig,
  testMatch: '**/*.screenshot.ts',
  globalSetup: './test/e2e/global-setup.ts',
  reporter: 'list',
});
