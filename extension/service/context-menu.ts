import { type Browser, browser } from 'wxt/browser';
import type { HistoryEntry } from '../history/history-entry.js';
import { t } from '../i18n.js';
import { type AnnounceDeps, shortenAndAnnounce } from './shorten-and-announce.js';

export const MENU_SHORTEN_LINK = 'linklet-shorten-link';
export const MENU_SHORTEN_PAGE = 'linklet-shorten-page';

/** Registers both items; call on install, menus persist across service worker restarts. */
export function createContextMenus(): void {
  browser.contextMenus.create({ id: MENU_SHORTEN_LINK, title: t('menuShortenLink'), contexts: ['link'] });
  browser.contextMenus.create({ id: MENU_SHORTEN_PAGE, title: t('menuShortenPage'), contexts: ['page'] });
}

/**
 * The menu click: "Shorten link" shortens the link under the pointer, "Shorten this page" the
 * page. A plain function of its inputs so tests call it directly.
 */
export function handleContextMenuClick(
  info: Pick<Browser.contextMenus.OnClickData, 'menuItemId' | 'linkUrl' | 'pageUrl'>,
  tab: Pick<Browser.tabs.Tab, 'url'> | undefined,
  deps: AnnounceDeps,
): Promise<HistoryEntry | undefined> {
  if (info.menuItemId === MENU_SHORTEN_LINK) return shortenAndAnnounce(info.linkUrl, deps);
  if (info.menuItemId === MENU_SHORTEN_PAGE) return shortenAndAnnounce(info.pageUrl ?? tab?.url, deps);
  return Promise.resolve(undefined);
}

export const COMMAND_SHORTEN_TAB = 'shorten-current-tab';

/** The keyboard shortcut: the command grants `activeTab`, so the tab's URL is readable. */
export function handleCommand(
  command: string,
  tab: Pick<Browser.tabs.Tab, 'url'> | undefined,
  deps: AnnounceDeps,
): Promise<HistoryEntry | undefined> {
  if (command !== COMMAND_SHORTEN_TAB) return Promise.resolve(undefined);
  return shortenAndAnnounce(tab?.url, deps);
}
