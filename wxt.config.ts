import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'wxt';

// What the extension's build reads: the folders of its code and assets, and the files that pin
// its tools. The sources archive for addons.mozilla.org holds exactly these (with docs/releasing.md).
const SOURCE_FOLDERS = ['entrypoints', 'extension', 'core', 'client', 'ui', 'public'];
const SOURCE_FILES = [
  'package.json',
  'package-lock.json',
  'wxt.config.ts',
  'tsconfig.json',
  'tsconfig.base.json',
  'scripts/prepare-extension.mjs',
  'scripts/bundle-sizes.mjs',
];

const filesUnder = (path: string): string[] =>
  statSync(path).isDirectory()
    ? readdirSync(path)
        .sort()
        .flatMap((name) => filesUnder(join(path, name)))
    : [path];

/**
 * One id per set of sources (see extension/build-id.ts): the hash of every file the build reads.
 * A build from other sources gets another id; the same sources get the same one, so a reviewer
 * rebuilding the Firefox package from the sources archive gets the very files that were sent.
 */
function sourcesId(): string {
  const hash = createHash('sha256');
  for (const file of [...SOURCE_FILES, ...SOURCE_FOLDERS].flatMap(filesUnder)) {
    hash
      .update(`${file.replaceAll('\\', '/')}\0`)
      .update(readFileSync(file))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}
const BUILD_ID = sourcesId();

// The extension is built from entrypoints/ and public/; see README.md, "The extension", and docs/extension.md.
export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  // Explicit imports everywhere: a reader can follow every name to its file.
  imports: false,
  vite: () => ({ define: { __LINKLET_BUILD__: JSON.stringify(BUILD_ID) } }),
  // `npm run zip` (docs/releasing.md): the store packages and, for addons.mozilla.org, the sources
  // its reviewers rebuild the Firefox package from: only what the extension's build reads (the
  // server, web app, tests and benches stay out), each file named with package.json's version.
  zip: {
    artifactTemplate: '{{name}}-{{version}}-{{browser}}.zip',
    sourcesTemplate: '{{name}}-{{version}}-sources.zip',
    excludeSources: ['**/*'],
    includeSources: [
      ...SOURCE_FILES,
      'README.md',
      'docs/releasing.md',
      ...SOURCE_FOLDERS.map((folder) => `${folder}/**`),
    ],
  },
  manifest: ({ browser }) => ({
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    default_locale: 'en',
    // activeTab: the current tab's URL only when the user clicks, presses the shortcut or picks a
    // menu item. No host permissions: the companion server answers CORS for any origin.
    permissions: [
      'activeTab',
      'alarms',
      'contextMenus',
      'notifications',
      'storage',
      'clipboardWrite',
      ...(browser === 'firefox' ? [] : ['offscreen']),
    ],
    action: { default_title: '__MSG_actionTitle__' },
    // `ln` then a URL (or nothing: the current tab) in the address bar: extension/service/omnibox.ts.
    omnibox: { keyword: 'ln' },
    commands: {
      'shorten-current-tab': {
        suggested_key: { default: 'Alt+Shift+L' },
        description: '__MSG_commandShorten__',
      },
    },
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            gecko: {
              id: 'linklet@linklet.dev',
              // Linklet sends nothing to its authors or anyone else: links go only to the
              // server the user sets. Firefox asks every new add-on to say so.
              data_collection_permissions: { required: ['none'] },
            },
          },
        }
      : {}),
  }),
});
