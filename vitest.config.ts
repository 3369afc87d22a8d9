import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/server/build-server.ts'],
    // Server tests start real processes; give them room on a 2-core machine.
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // A skipped or focused test would hide a gap: fail the run instead.
    allowOnly: false,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
