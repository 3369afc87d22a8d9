import { expect, type Page } from '@playwright/test';

// What the update test does in the popup's page, the same way for every release: their popups
// share these element ids (the form's fields, the result and the history items).

/** Shortens `url` (with `code`) in the popup's form and returns the short URL it shows. */
export async function shortenInForm(popup: Page, url: string, code = ''): Promise<string> {
  const before = await popup.locator('#short-url').inputValue();
  await popup.locator('#url').fill(url);
  await popup.locator('#code').fill(code);
  await popup.locator('#shorten').click();
  await expect(popup.locator('#short-url')).not.toHaveValue(before);
  await expect(popup.locator('#error')).toBeHidden();
  return popup.locator('#short-url').inputValue();
}

/** The popup's history as text per item, keyed by the original URL. */
export async function historyByUrl(
  popup: Page,
): Promise<Map<string, { status: string; shortUrl: string; clicks: string }>> {
  const items = await popup.locator('#history .history-item').evaluateAll((nodes) =>
    nodes.map((node) => ({
      originalUrl: node.querySelector('.original-url')?.textContent ?? '',
      status: (node as HTMLElement).dataset.status ?? '',
      shortUrl: node.querySelector('.short-url')?.textContent ?? '',
      clicks: node.querySelector('.clicks')?.textContent ?? '',
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
