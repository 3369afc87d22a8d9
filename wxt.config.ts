import { defineConfig } from 'wxt';

// One id per build (see extension/build-id.ts): the time it was made, which never repeats.
const BUILD_ID = `${Date.now().toString(36)}-${process.pid.toString(36)}`;

// The extension is built from entrypoints/ and public/; see README.md, "The extension", and docs/extension.md.
export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  // Explicit imports everywhere: a reader can follow every name to its file.
  imports: false,
  vite: () => ({ define: { __LINKLET_BUILD__: JSON.stringify(BUILD_ID) } }),
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
