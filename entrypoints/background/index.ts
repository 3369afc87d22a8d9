import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import {
  COMMAND_SHORTEN_TAB,
  createContextMenus,
  handleCommand,
  handleContextMenuClick,
} from '../../extension/context-menu.js';
import { createLocalBackend } from '../../extension/create-local-backend.js';
import { createHistory } from '../../extension/history.js';
import { createIdbLinkStore } from '../../extension/idb-link-store.js';
import { openLinkletDb } from '../../extension/link-db.js';
import { isBackendPath, localBase, routeToHandler } from '../../extension/local-backend.js';
import { answerFetchMessage } from '../../extension/message-transport.js';
import { isLinkletMessage } from '../../extension/messages.js';
import { copyFromBackground } from '../../extension/offscreen-clipboard.js';
import { loadSettings, settingsItem } from '../../extension/settings.js';
import { notify } from '../../extension/shorten-and-announce.js';
import { shortenLink } from '../../extension/shorten-link.js';
import { createSyncScheduler, SYNC_ALARM } from '../../extension/sync-scheduler.js';

/** The service worker's fetch event; the extension is typed against DOM, which lacks it. */
interface FetchEvent extends Event {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}

// Wiring only: every behaviour lives in extension/ and core/. Listeners are added synchronously in
// main() so the browser finds them when it wakes the worker for an event.
export default defineBackground({
  type: 'module',
  main() {
    const store = createIdbLinkStore(() => openLinkletDb());
    const history = createHistory(() => openLinkletDb());
    const handle = createLocalBackend(store);
    const origin = localBase();
    const sync = createSyncScheduler(history);
    const announceDeps = {
      shorten: async (url: string) => {
        const settings = await loadSettings();
        const localFetch = routeToHandler(handle, origin);
        const entry = await shortenLink(
          { url, expire: settings.defaultExpire },
          { settings, history, localFetch, localBase: origin },
          true,
        );
        if (entry.status === 'pending') void sync.run();
        return entry;
      },
      copy: copyFromBackground,
      notify,
      autoCopy: async () => (await loadSettings()).autoCopy,
    };

    // Chromium: extension pages fetch the extension origin and this worker answers.
    self.addEventListener('fetch', (event) => {
      const { request, respondWith } = event as FetchEvent;
      const url = new URL(request.url);
      if (url.origin !== self.location.origin || !isBackendPath(url.pathname)) return;
      respondWith.call(event, handle(request));
    });

    browser.runtime.onMessage.addListener((message: unknown) => {
      if (!isLinkletMessage(message)) return undefined;
      // Firefox: no service worker to intercept fetches, so pages send requests as messages.
      if (message.type === 'linklet:fetch') return answerFetchMessage(message.request, handle);
      if (message.type === 'linklet:sync') return sync.run({ force: message.force });
      return undefined;
    });

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
    browser.commands.onCommand.addListener((command, tab) => {
      if (command === COMMAND_SHORTEN_TAB) void handleCommand(command, tab, announceDeps);
    });

    // For the end-to-end tests and DevTools: the same handlers the browser events call.
    Object.assign(self, {
      linklet: {
        onContextMenuClick: (info: Parameters<typeof handleContextMenuClick>[0], tab?: { url?: string }) =>
          handleContextMenuClick(info, tab, announceDeps),
        onCommand: (command: string, tab?: { url?: string }) => handleCommand(command, tab, announceDeps),
        sync: (force = true) => sync.run({ force }),
      },
    });
  },
});
