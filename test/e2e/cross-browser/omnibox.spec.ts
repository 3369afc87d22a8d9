import { expect, setServer, test } from './fixtures.js';

// The address bar's keyword `ln` in both browsers (Chromium MV3, Firefox MV2), through the
// background's own handlers (no driver types into the omnibox): the suggestion in each browser's
// form (XML in Chromium, plain text in Firefox) and Enter copying a server's short URL.

test('ln: the suggestion says what Enter does, and Enter shortens and copies the URL', async ({
  ext,
  site,
  companion,
  engine,
}) => {
  const page = await ext.openTab(site.url('/omnibox/cross'));
  expect(await ext.background<string>(`self.linklet.omniboxSuggestion('')`)).toBe(
    'Shorten this tab (a link only this browser opens; set a server in the options to copy one anyone can open)',
  );

  await setServer(ext, companion.url);
  const typed = site.url('/omnibox/cross?a=1&b=2');
  const escaped = engine === 'firefox' ? typed : typed.replace('&', '&#38;');
  expect(await ext.background<string>(`self.linklet.omniboxSuggestion(${JSON.stringify(typed)})`)).toBe(
    `Shorten ${escaped} and copy its short URL`,
  );
  const made = await ext.background<{ shortUrl: string; status: string }>(
    `self.linklet.onOmniboxInput(${JSON.stringify(typed)})`,
  );
  expect(made.status).toBe('synced');
  expect(made.shortUrl.startsWith(`${companion.url}/`)).toBe(true);
  await expect.poll(() => ext.clipboardText(page)).toBe(made.shortUrl);
  expect(await companion.resolve(made.shortUrl)).toEqual({ status: 302, location: typed });
});
