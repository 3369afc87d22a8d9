import { defineConfig } from '@playwright/test';
export default defineConfig({ testDir: 'test/e2e', testMatch: 'zz-explore.spec.ts', workers: 1, timeout: 90_000 });
