import type { Page } from '@playwright/test';
import { startTestSite } from '../test-site.js';
import { expect, expectNoSeriousViolations, test } from './fixtures.js';
import { VIEWPORTS } from './screens-fixtures.js';

// SPEC "Everyday use", Share from a phone: the web app is installable (a manifest, icons, a service
// worker for its shell) and a share target. Chromium says so itself (its installability check and
// manifest parser over CDP); the worker keeps the page for offline use and never a short URL.

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(bytes: Buffer): string {
  expect(bytes.subarray(1, 4).toString('latin1'), 'a PNG').toBe('PNG');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

/** Waits until the service worker controls the page (it claims the page once its shell is kept). */
async function controlled(app: Page): Promise<void> {
  await app.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

test('installable: the manifest and its icons, a worker that opens the page offline and never keeps a short URL', async ({
  app,
  server,
}) => {
  const href = await app.locator('link[rel="manifest"]').getAttribute('href');
  const manifestUrl = new URL(href ?? '', app.url()).href;
  const manifest = await (await fetch(manifestUrl)).json();
  expect(manifest).toMatchObject({
    name: 'Linklet',
    short_name: 'Linklet',
    start_url: './',
    scope: './',
    display: 'standalone',
    background_color: '#ffffff',
    share_target: { action: './', method: 'GET', params: { url: 'url', text: 'text', title: 'title' } },
  });
  const icons: { src: string; sizes: string; type: string; purpose: string }[] = manifest.icons;
  expect(icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual([
    '192x192 any',
    '512x512 any',
    '512x512 maskable',
  ]);
  for (const icon of icons) {
    const response = await fetch(new URL(icon.src, manifestUrl));
    expect(response.status, icon.src).toBe(200);
    expect(response.headers.get('content-type')).toBe(icon.type);
    expect(pngSize(Buffer.from(await response.arrayBuffer())), icon.src).toBe(icon.sizes);
  }

  const cdp = await app.context().newCDPSession(app);
  const parsed = await cdp.send('Page.getAppManifest');
  expect(parsed.errors, 'Chromium parses the manifest without complaint').toEqual([]);
  expect(parsed.url).toBe(manifestUrl);
  await controlled(app);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  // Playwright's contexts are off the record, where Chromium installs nothing; that is the only reason left.
  expect(
    installabilityErrors.map((error) => error.errorId),
    'Chromium would offer to install it',
  ).toEqual(['in-incognito']);

  // A worker taking over drops the shells of earlier builds, and only those.
  await app.evaluate(async () => {
    for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
    await caches.open('linklet-shell-0123456789abcdef');
    await caches.open('another-app');
  });
  await app.reload();
  await controlled(app);
  const names = await app.evaluate(() => caches.keys());
  expect(names.filter((name) => name.startsWith('linklet-shell-'))).toEqual([
    expect.stringMatching(/^linklet-shell-[0-9a-f]{16}$/),
  ]);
  expect(names).not.toContain('linklet-shell-0123456789abcdef');
  expect(names).toContain('another-app');

  // A short URL visited while the worker runs (its target: a page of a site on this machine).
  const key = await server.createKey('alice');
  const site = await startTestSite();
  const target = site.url('/kept');
  const made = await server.api('POST', '/api/v1/shorten', {
    key,
    body: { original_url: target, custom_code: 'kept' },
  });
  expect(made.status, made.body.message).toBe(201);
  const shortUrl = made.body.data.short_url as string;
  await app.goto(shortUrl);
  expect(app.url()).toBe(target);
  await expect(app.getByRole('heading', { name: 'Test page /kept' })).toBeVisible();
  await site.close();

  // Offline, the page opens from the worker's cache, its script runs, and a share still fills the form.
  await app.goto(server.url);
  await controlled(app);
  await app.context().setOffline(true);
  await app.reload();
  await expect(app.getByRole('heading', { name: 'Shorten a link' })).toBeVisible();
  await expect(app.getByLabel('Expires after')).toHaveValue(/.+/); // filled in by the script
  await app.goto(`${server.url}/?text=${encodeURIComponent('Offline https://example.com/offline')}`);
  await expect(app.getByLabel('Long URL')).toHaveValue('https://example.com/offline');
  await app.context().setOffline(false);

  // The worker kept its build's shell and nothing else: no short URL, no API answer.
  const kept = await app.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    }
    return urls;
  });
  expect(kept).toContain(`${server.url}/`);
  expect(kept).toContain(manifestUrl);
  for (const url of kept)
    expect(url).toMatch(new RegExp(`^${server.url}/(assets/[\\w-]+\\.(js|css|png)|manifest\\.webmanifest)?$`));

  // Disabled, the short URL it saw stops redirecting at once: the worker never answers for it.
  const disabled = await server.api('PATCH', '/api/v1/links/kept', { key, body: { disabled: true } });
  expect(disabled.status, disabled.body.message).toBe(200);
  // The browser's own HTTP cache may keep the redirect a minute (docs/redirect-caching.md): emptied
  // here, what is left to answer from is the server, or the worker's cache if it kept it.
  await cdp.send('Network.clearBrowserCache');
  const again = await app.goto(shortUrl);
  expect(again?.status()).toBe(410);
  expect(again?.fromServiceWorker()).toBe(false);
  expect(app.url()).toBe(shortUrl);
});

test('a share fills the form, which the person confirms: phone and desktop, English and Korean, light and dark', async ({
  chromiumBrowser,
  server,
}) => {
  const shared = `${server.url}/?title=${encodeURIComponent('A page')}&text=${encodeURIComponent('Look https://example.com/a')}`;
  const filled = {
    'en-US': 'The shared URL is filled in: check it, then press Shorten.',
    'ko-KR': '공유한 URL을 넣었습니다. 확인한 뒤 줄이기를 누르세요.',
  };
  const noUrl = { 'en-US': 'What was shared has no URL to shorten.', 'ko-KR': '공유한 내용에 줄일 URL이 없습니다.' };
  for (const locale of ['en-US', 'ko-KR'] as const) {
    const context = await chromiumBrowser.newContext({ locale, serviceWorkers: 'block' });
    const app = await context.newPage();
    for (const theme of ['light', 'dark'] as const) {
      await app.emulateMedia({ colorScheme: theme });
      for (const [size, viewport] of Object.entries(VIEWPORTS)) {
        const screen = `${locale} ${theme} ${size}`;
        await app.setViewportSize(viewport);
        await app.goto(shared);
        const url = app.locator('#url');
        await expect(url, screen).toHaveValue('https://example.com/a');
        await expect(app.locator('#status'), screen).toHaveText(filled[locale]);
        await expect(app.locator('#shorten'), 'Shorten has the focus: one tap confirms').toBeFocused();
        expect(new URL(app.url()).search, 'the share leaves the address bar').toBe('');
        await expect(app.locator('#result'), 'nothing is shortened unasked').toBeHidden();
        // axe reads colours and names, not layout: once per theme is enough, on the phone.
        if (size === 'phone') await expectNoSeriousViolations(app, `the shared URL, ${screen}`);
      }
    }
    await app.reload();
    await expect(app.locator('#url'), 'a reload does not fill it again').toHaveValue('');
    await app.goto(`${server.url}/?text=${encodeURIComponent('Just words')}`);
    await expect(app.locator('#url-error')).toHaveText(noUrl[locale]);
    await expect(app.locator('#url')).toBeFocused();
    await expectNoSeriousViolations(app, `a share without a URL, ${locale} dark`);
    await context.close();
  }
  // Confirmed, it is shortened as any URL typed in.
  const context = await chromiumBrowser.newContext({ serviceWorkers: 'block' });
  const app = await context.newPage();
  await app.goto(shared);
  await app.locator('#shorten').click();
  const shortUrl = await app.getByRole('textbox', { name: 'Short URL' });
  await expect(shortUrl).toHaveValue(new RegExp(`^${server.url}/[2-9a-z]{7}/$`));
  expect(await server.resolve(await shortUrl.inputValue())).toEqual({ status: 302, location: 'https://example.com/a' });
  await context.close();
});
