import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

/** The service worker's entry (webapp/service-worker.ts), built beside the page as `sw.js`. */
export const WORKER_ENTRY = 'sw';

/** Light and dark, as ui/theme.css's `--bg`: the splash screen and title bar match the page. */
const BACKGROUND = '#ffffff';

const ICONS = [
  { file: 'icon-192.png', sizes: '192x192', purpose: 'any' },
  { file: 'icon-512.png', sizes: '512x512', purpose: 'any' },
  { file: 'icon-maskable-512.png', sizes: '512x512', purpose: 'maskable' },
];

/**
 * Makes the web app installable, as the last step of its build: emits the install icons
 * (webapp/icons/, drawn by scripts/make-web-app-icons.mjs) as hashed assets, the web app manifest
 * naming them, and writes into `sw.js` what its shell is: the build's hash (of the page, the manifest and
 * every file name, which carry content hashes) and those files. Every URL is relative, so the app works
 * under a BASE_URL with a path prefix too.
 */
export function webAppShell(): Plugin {
  return {
    name: 'linklet-web-app-shell',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const icons = ICONS.map((icon) => {
          const source = readFileSync(new URL(`../webapp/icons/${icon.file}`, import.meta.url));
          const ref = this.emitFile({ type: 'asset', name: icon.file, source });
          return { src: this.getFileName(ref), sizes: icon.sizes, type: 'image/png', purpose: icon.purpose };
        });
        const manifestSource = manifest(icons);
        this.emitFile({ type: 'asset', fileName: 'manifest.webmanifest', source: manifestSource });

        const worker = bundle[`${WORKER_ENTRY}.js`];
        const page = bundle['index.html'];
        if (worker?.type !== 'chunk' || page?.type !== 'asset')
          throw new Error('The build has no sw.js or index.html.');
        // Files emitted in this hook may not be in `bundle` yet: the icons and manifest are added by name.
        const emitted = [...icons.map((icon) => icon.src), 'manifest.webmanifest'];
        const built = Object.keys(bundle).filter((name) => name !== worker.fileName && name !== 'index.html');
        const files = [...new Set([...built, ...emitted])].filter((name) => !name.endsWith('.map')).sort();
        const version = createHash('sha256')
          .update(String(page.source))
          .update(manifestSource)
          .update(files.join('\n'))
          .digest('hex');
        const build = JSON.stringify({ version: version.slice(0, 16), files });
        const placeholder = /(["'`])__LINKLET_SHELL__\1/;
        if (!placeholder.test(worker.code)) throw new Error('sw.js has lost its __LINKLET_SHELL__ placeholder.');
        worker.code = worker.code.replace(placeholder, () => JSON.stringify(build));
      },
    },
  };
}

function manifest(icons: object[]): string {
  return `${JSON.stringify(
    {
      name: 'Linklet',
      short_name: 'Linklet',
      id: './',
      start_url: './',
      scope: './',
      display: 'standalone',
      background_color: BACKGROUND,
      theme_color: BACKGROUND,
      icons,
      // "Share → Linklet": the page opens with what was shared in its query (webapp/share-target.ts).
      share_target: {
        action: './',
        method: 'GET',
        enctype: 'application/x-www-form-urlencoded',
        params: { title: 'title', text: 'text', url: 'url' },
      },
    },
    null,
    2,
  )}\n`;
}
