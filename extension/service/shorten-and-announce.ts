import { browser } from 'wxt/browser';
import type { HistoryEntry } from '../history/history-entry.js';
import { copyUnasked } from '../history/link-readiness.js';
import { t } from '../i18n.js';

export interface AnnounceDeps {
  /** Shortens with the default options (see `shortenLink`). */
  shorten(url: string): Promise<HistoryEntry>;
  copy(text: string): Promise<boolean>;
  notify(title: string, message: string): Promise<void>;
  autoCopy(): Promise<boolean>;
}

/**
 * What the menu and the shortcut do: shorten, copy, and tell the user in a notification, since
 * neither has a page to show the result on. Failures are told the same way, never swallowed.
 */
export async function shortenAndAnnounce(
  url: string | undefined,
  deps: AnnounceDeps,
): Promise<HistoryEntry | undefined> {
  if (!url || !/^https?:/i.test(url)) {
    await deps.notify(t('notifyFailedTitle'), t('errorPageNotShortenable'));
    return undefined;
  }
  try {
    const entry = await deps.shorten(url);
    // A local or pending short URL is no link anyone can open (yet): told, never copied unasked.
    if (entry.status === 'local') {
      await deps.notify(t('notifyLocalTitle'), t('notifyLocalMessage'));
      return entry;
    }
    if (entry.status === 'pending') {
      await deps.notify(t('notifyPendingTitle'), t('notifyPendingMessage'));
      return entry;
    }
    const copied =
      copyUnasked(entry) && (await deps.autoCopy()) && (await deps.copy(entry.shortUrl).catch(() => false));
    await deps.notify(copied ? t('notifyCopiedTitle') : t('notifyMadeTitle'), entry.shortUrl || entry.originalUrl);
    return entry;
  } catch (error) {
    await deps.notify(t('notifyFailedTitle'), error instanceof Error ? error.message : String(error));
    return undefined;
  }
}

/** A basic notification with the extension's icon. */
export async function notify(title: string, message: string): Promise<void> {
  await browser.notifications.create({
    type: 'basic',
    iconUrl: browser.runtime.getURL('/icon/128.png'),
    title,
    message,
  });
}
