import { defineConfig } from 'vitest/config';

// `npm run test:container`: builds the container image with podman and runs it (see
// test/container/image.test.ts). Opt-in and on its own: it installs podman, makes the base images
// and compiles better-sqlite3, minutes of work no other test waits for.
export default defineConfig({
  test: {
    include: ['test/container/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 3_600_000,
    allowOnly: false,
  },
});
