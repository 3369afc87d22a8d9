import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import { createLocalBackend } from '../../extension/backend/create-local-backend.js';
import { createIdbLinkStore } from '../../extension/backend/idb-link-store.js';
import { openLinkletDb } from '../../extension/backend/link-db.js';
import { isBackendPath, isOpenableShortUrl } from '../../extension/backend/local-backend.js';
import { createHistory } from '../../extension/history/history.js';
import { createApiAnswerer } from '../../extension/service/api-answerer.js';
import {
  COMMAND_SHORTEN_TAB,
  createContextMenus,
  handleCommand,
  handleContextMenuClick,
} from '../../extension/service/context-menu.js';
import { createLinkService } from '../../extension/service/link-service.js';
import { copyFromBackground } from '../../extension/service/offscreen-clipboard.js';
import { handleOmniboxInput, omniboxSuggestionFor, registerOmnibox } from '../../extension/service/omnibox.js';
import { notify } from '../../extension/service/shorten-and-announce.js';
import { loadSettings, settingsItem } from '../../extension/settings.js';
import { createSyncScheduler, SYNC_ALARM } from '../../extension/sync/sync-scheduler.js';

/** The service worker's fetch event; the extension is typed against DOM, which lacks it. */
interface FetchEvent extends Event {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}

/** The activate event, and the service worker's `clients`; DOM's types lack both. */
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
declare const clients: { claim(): Promise<void> } | undefined;

// Wiring only: every behaviour lives in extension/ and core/. Listeners are added synchronously in
// main() so the browser finds them when it wakes the worker for an event.
export default defineBackground({
  type: 'module',
  main() {
    const store = createIdbLinkStore(() => openLinkletDb());
    const history = createHistory(() => openLinkletDb());
    const handle = createLocalBackend(store);
    const sync = createSyncScheduler(history);
    // The one shorten-and-record flow, behind the popup, the context menu and the shortcut.
    const service = createLinkService({ store, history, handle, sync });
    const announceDeps = {
      shorten: (url: string) => service.shorten({ url }, { reuse: true }),
      // A record from before the reply checks may hold a URL that must not reach the clipboard.
      copy: async (text: string) => isOpenableShortUrl(text) && copyFromBackground(text),
      notify,
      autoCopy: async () => (await loadSettings()).autoCopy,
      hasServer: async () => (await loadSettings()).serverUrl !== '',
    };

    // Pages opened before this worker activated (the first popup after install) are not
    // controlled by it, so their fetches of the extension origin would miss the handler below.
    if (typeof clients !== 'undefined') {
      self.addEventListener('activate', (event) => (event as ExtendableEvent).waitUntil(clients.claim()));
    }

    // Chromium: extension pages fetch the extension origin and this worker answers.
    self.addEventListener('fetch', (event) => {
      const { request, respondWith } = event as FetchEvent;
      const url = new URL(request.url);
      if (url.origin !== self.location.origin || !isBackendPath(url.pathname)) return;
      respondWith.call(event, handle(request));
    });

    // Pages (popup, options) ask for everything through the one typed API, in Firefox too.
    browser.runtime.onMessage.addListener(createApiAnswerer(service));

    browser.runtime.onInstalled.addListener(() => {
      createContextMenus();
      void sync.run();
    });
    browser.runtime.onStartup.addListener(() => void sync.run());
    browser.alarms.onAlarm.addListener((alarm) => {
      if (alarm.name === SYNC_ALARM) void sync.run();
    });
    settingsItem.watch(() => void sync.run({ force: true }));
    browser.contextMenus.onClicked.addListener((info, tab) => void handleContextMenuClick(info, tab, announceDeps));
    registerOmnibox(announceDeps);
    browser.commands.onCommand.addListener((command, tab) => {
      if (command === COMMAND_SHORTEN_TAB) void handleCommand(command, tab, announceDeps);
    });

    // For the end-to-end tests and DevTools: the same handlers the browser events call.
    Object.assign(self, {
      linklet: {
        onContextMenuClick: (info: Parameters<typeof handleContextMenuClick>[0], tab?: { url?: string }) =>
          handleContextMenuClick(info, tab, announceDeps),
        onCommand: (command: string, tab?: { url?: string }) => handleCommand(command, tab, announceDeps),
        sync: (force = true) => service.sync({ force }),
        onOmniboxInput: (text: string, tabUrl?: string) => handleOmniboxInput(text, announceDeps, tabUrl),
        omniboxSuggestion: (text: string) => omniboxSuggestionFor(text, announceDeps),
      },
    });
  },
});
