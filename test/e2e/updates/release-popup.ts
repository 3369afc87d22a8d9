import { expect, type Page } from '@playwright/test';

// What the update test does in the popup's page, the same way for every release: their popups
// share these element ids (the form's fields, the result and the history items).

/** Shortens `url` (with `code`) in the popup's form and returns the short URL it shows. */
export async function shortenInForm(popup: Page, url: string, code = ''): Promise<string> {
  // Every release's popup puts the active tab's URL (here an extension page's) in the field as it
  // starts, 3289986 and earlier only once the background has listed the history: filled before
  // that, the field was overwritten and the shorten refused (seen in CI on a busy machine).
  await expect(popup.locator('#url')).not.toHaveValue('');
  const before = await popup.locator('#short-url').inputValue();
  await popup.locator('#url').fill(url);
  await popup.locator('#code').fill(code);
  await popup.locator('#shorten').click();
  await expect(popup.locator('#short-url')).not.toHaveValue(before);
  await expect(popup.locator('#error')).toBeHidden();
  return popup.locator('#short-url').inputValue();
}

/** One history item as the popup shows it. */
export interface ShownItem {
  status: string;
  shortUrl: string;
  clicks: string;
  /** The link's title and tags (empty in releases before them). */
  title: string;
  tags: string[];
  /** Whether it carries the password badge. */
  locked: boolean;
}

/**
 * The popup's history as text per item, keyed by the original URL, read once `count` items are
 * listed: 0.4.0 on shows the tab's URL first and lists the history after it, and a read just after
 * a reload would find none.
 */
export async function historyByUrl(popup: Page, count: number): Promise<Map<string, ShownItem>> {
  await expect(popup.locator('#history .history-item')).toHaveCount(count);
  const items = await popup.locator('#history .history-item').evaluateAll((nodes) =>
    nodes.map((node) => ({
      originalUrl: node.querySelector('.original-url')?.textContent ?? '',
      status: (node as HTMLElement).dataset.status ?? '',
      shortUrl: node.querySelector('.short-url')?.textContent ?? '',
      clicks: node.querySelector('.clicks')?.textContent ?? '',
      title: node.querySelector('.link-title')?.textContent ?? '',
      tags: Array.from(node.querySelectorAll('.tag-chip'), (chip) => chip.textContent ?? ''),
      locked: node.querySelector('.badge.protected') !== null,
    })),
  );
  return new Map(items.map(({ originalUrl, ...rest }) => [originalUrl, rest]));
}

/** A new owner's API key, made with the server's administrator key. */
export async function makeKey(serverUrl: string, adminKey: string, name: string): Promise<string> {
  const response = await fetch(`${serverUrl}/api/v1/keys`, {
    method: 'POST',
    headers: { 'X-API-Key': adminKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { key: string } }).data.key;
}
