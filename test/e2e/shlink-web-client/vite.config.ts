import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

// Shlink's own web client as a page of its own (test/e2e/shlink-web-client.spec.ts serves it from
// another origin than the Linklet server), built by the Playwright global setup into
// dist/shlink-web-client: ignored by git, so a test run never writes into the tracked tree.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  publicDir: false,
  logLevel: 'warn',
  plugins: [tailwindcss()],
  build: {
    outDir: fileURLToPath(new URL('../../../dist/shlink-web-client', import.meta.url)),
    emptyOutDir: true,
    // The published client is one big bundle; its size is Shlink's, not something to act on here.
    chunkSizeWarningLimit: 4096,
    rolldownOptions: {
      onLog(level, log, handler) {
        // react-router's `"use client"` is for server components, which a static page has none of.
        if (log.code === 'MODULE_LEVEL_DIRECTIVE') return;
        handler(level, log);
      },
    },
  },
});
