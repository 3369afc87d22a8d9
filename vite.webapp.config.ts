import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { WORKER_ENTRY, webAppShell } from './scripts/web-app-shell.js';

// `npm run build:webapp`: the web app the server serves at `/` (webapp/), into dist/webapp, where
// server/http/web-app-files.ts reads it. Asset names carry content hashes; paths are relative
// (`./assets/…`), so the app works under a BASE_URL with a path prefix too. The service worker is
// a second entry with a fixed name, `sw.js` beside the page (its folder is its scope), and
// webAppShell adds the manifest and icons that make the app installable.
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
    rollupOptions: {
      input: {
        index: fileURLToPath(new URL('./webapp/index.html', import.meta.url)),
        [WORKER_ENTRY]: fileURLToPath(new URL('./webapp/service-worker.ts', import.meta.url)),
      },
      output: {
        entryFileNames: (chunk) => (chunk.name === WORKER_ENTRY ? '[name].js' : 'assets/[name]-[hash].js'),
      },
    },
  },
  plugins: [webAppShell()],
});
