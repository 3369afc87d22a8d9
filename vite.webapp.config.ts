import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// `npm run build:webapp`: the web app the server serves at `/` (webapp/), into dist/webapp, where
// server/http/web-app-files.ts reads it. Asset names carry content hashes; paths are relative
// (`./assets/…`), so the app works under a BASE_URL with a path prefix too.
export default defineConfig({
  root: fileURLToPath(new URL('./webapp', import.meta.url)),
  base: './',
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('./dist/webapp', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // Nothing inline (the Content-Security-Policy allows none), and no preload helper for one chunk.
    assetsInlineLimit: 0,
    modulePreload: false,
    target: 'es2022',
  },
});
