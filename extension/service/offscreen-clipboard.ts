import { browser } from 'wxt/browser';
import type { CopyMessage } from './messages.js';

/** The part of Chromium's `chrome.offscreen` this extension uses (the polyfill's types lack it). */
interface OffscreenApi {
  createDocument(options: { url: string; reasons: string[]; justification: string }): Promise<void>;
  hasDocument?(): Promise<boolean>;
}

declare const chrome: { offscreen?: OffscreenApi; runtime: { getContexts?(filter: object): Promise<unknown[]> } };

export const OFFSCREEN_PATH = '/offscreen.html';

/**
 * Copies text from the background. A service worker has no clipboard, so on Chromium the text
 * goes to an offscreen document made for the purpose; Firefox's background page can write the
 * clipboard itself. Resolves false when the browser refused, so the caller can say so.
 */
export async function copyFromBackground(text: string): Promise<boolean> {
  const offscreen = typeof chrome === 'undefined' ? undefined : chrome.offscreen;
  if (!offscreen) {
    return navigator.clipboard.writeText(text).then(
      () => true,
      () => false,
    );
  }
  await ensureOffscreenDocument(offscreen);
  return Boolean(await browser.runtime.sendMessage({ type: 'linklet:copy', text } satisfies CopyMessage));
}

let creating: Promise<void> | undefined;

async function ensureOffscreenDocument(offscreen: OffscreenApi): Promise<void> {
  const url = browser.runtime.getURL(OFFSCREEN_PATH);
  const existing = await chrome.runtime.getContexts?.({ contextTypes: ['OFFSCREEN_DOCUMENT'], documentUrls: [url] });
  if (existing && existing.length > 0) return;
  creating ??= offscreen
    .createDocument({
      url,
      reasons: ['CLIPBOARD'],
      justification: 'Copy the short URL made from the menu or shortcut.',
    })
    .finally(() => {
      creating = undefined;
    });
  await creating;
}
