import { gzipSync } from 'node:zlib';
import { expect, expectNoSeriousViolations, makeLinks, signInWith, test } from './fixtures.js';

const DAY_MS = 86_400_000;
const PAGE_SIZE = 20;

test('a browser gets the app, a JSON client the API description; hashed assets are immutable, all under 60 KB gzip', async ({
  server,
}) => {
  const page = await fetch(`${server.url}/`, { headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(page.headers.get('cache-control')).toBe('no-cache');
  expect(page.headers.get('vary')).toBe('Accept');
  const policy = page.headers.get('content-security-policy') ?? '';
  expect(policy).toMatch(/^default-src 'self';/);
  expect(policy).not.toContain('unsafe-inline');
  const html = await page.text();
  // Nothing inline: every script and stylesheet is a file of its own under assets/.
  expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  expect(html).not.toMatch(/<style|style="/);
  const assets = [...html.matchAll(/(?:src|href)="\.\/assets\/([^"]+)"/g)].map((match) => match[1] as string);
  expect(assets.some((name) => name.endsWith('.js'))).toBe(true);
  expect(assets.some((name) => name.endsWith('.css'))).toBe(true);
  let gzipped = 0;
  for (const name of assets) {
    expect(name).toMatch(/^[\w-]+-[\w-]{8,}\.(js|css)$/); // a content hash in the name
    const asset = await fetch(`${server.url}/assets/${name}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-security-policy')).toBe(policy);
    expect(asset.headers.get('content-type')).toMatch(name.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
    gzipped += gzipSync(Buffer.from(await asset.arrayBuffer())).length;
  }
  console.log(`web app: ${assets.length} files, ${(gzipped / 1024).toFixed(1)} KB gzip`);
  expect(gzipped).toBeLessThan(60 * 1024);
  expect((await fetch(`${server.url}/assets/nothing-12345678.js`)).status).toBe(404);

  const json = await fetch(`${server.url}/`, { headers: { Accept: 'application/json' } });
  expect(json.headers.get('content-type')).toMatch(/^application\/json/);
  expect((await json.json()).name).toBe('Linklet');
  expect(json.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
});

test('shortens with a generated code and with a custom one: short URL, Copy, QR code, expiry; both redirect', async ({
  app,
  server,
}) => {
  await expect(app.getByRole('heading', { name: 'Shorten a link' })).toBeVisible();
  await expectNoSeriousViolations(app, 'the empty page');

  await app.getByLabel('Long URL').fill('https://example.com/first');
  await app.getByRole('button', { name: 'Shorten' }).click();
  const shortUrl = app.getByRole('textbox', { name: 'Short URL' });
  await expect(shortUrl).toHaveValue(new RegExp(`^${server.url}/[2-9a-z]{7}/$`));
  const generated = await shortUrl.inputValue();
  expect(await server.resolve(generated)).toEqual({ status: 302, location: 'https://example.com/first' });
  await expect(app.getByRole('img', { name: 'QR code of the short URL' }).locator('svg')).toBeVisible();
  const expires = await app.locator('#expires').getAttribute('datetime');
  expect(Math.abs(Date.parse(expires ?? '') - (Date.now() + 7 * DAY_MS))).toBeLessThan(60_000);
  // The result's Copy (signed out, the link is also listed under "Made in this browser", with its own).
  const copy = app.locator('#result').getByRole('button', { name: 'Copy' });
  await expect(copy).toBeFocused();
  await copy.click();
  await expect(app.locator('#result').getByRole('button', { name: 'Copied' })).toBeVisible();
  await expect(app.locator('#status')).toHaveText('Copied to the clipboard.');
  expect(await app.evaluate(() => navigator.clipboard.readText())).toBe(generated);
  await expectNoSeriousViolations(app, 'the result');

  await app.getByLabel('Long URL').fill('https://example.com/second');
  await app.getByLabel('Custom code').fill('한글-promo');
  await app.getByLabel('Expires after').selectOption({ label: '24 hours' });
  await app.getByRole('button', { name: 'Shorten' }).click();
  await expect(shortUrl).toHaveValue(`${server.url}/한글-promo/`);
  const custom = await server.resolve(`${server.url}/${encodeURIComponent('한글-promo')}/`);
  expect(custom).toEqual({ status: 302, location: 'https://example.com/second' });
  const customExpires = await app.locator('#expires').getAttribute('datetime');
  expect(Math.abs(Date.parse(customExpires ?? '') - (Date.now() + DAY_MS))).toBeLessThan(60_000);
});

test("a taken code says so next to the code field, with the date it frees up when the code is the owner's own", async ({
  app,
  server,
}) => {
  const alice = await server.createKey('alice');
  await makeLinks(server, alice, ['taken']);
  const direct = await server.api('POST', '/api/v1/shorten', {
    body: { original_url: 'https://example.com/again', custom_code: 'taken' },
  });
  expect(direct.status).toBe(409);

  await app.getByLabel('Long URL').fill('https://example.com/again');
  await app.getByLabel('Custom code').fill('taken');
  await app.getByRole('button', { name: 'Shorten' }).click();
  // In the page's words, next to the field: never the API's own message.
  await expect(app.getByRole('alert').filter({ hasText: /\S/ })).toHaveText('That code is taken; choose another.');
  await expect(app.locator('#code-error')).toBeVisible();
  await expect(app.getByLabel('Custom code')).toHaveAttribute('aria-invalid', 'true');
  await expect(app.locator('#result')).toBeHidden();
  await expectNoSeriousViolations(app, 'a shorten error');

  await signInWith(app, alice, 'alice');
  await app.getByRole('button', { name: 'Shorten' }).click();
  const alert = app.locator('#code-error');
  await expect(alert).toContainText(/^That code is taken until .+; choose another\.$/);
});

test('signs in with a key from the keys command; lists, pages, searches and filters only that owner’s links', async ({
  app,
  server,
}) => {
  const alice = await server.createKey('alice');
  const bob = await server.createKey('bob');
  const codes = Array.from({ length: PAGE_SIZE + 3 }, (_, index) => `alice-${String(index).padStart(2, '0')}`);
  await makeLinks(server, alice, codes);
  await makeLinks(server, bob, ['bob-only']);

  await app.getByLabel('API key').fill('lk_not-a-real-key');
  await app.getByRole('button', { name: 'Sign in' }).click();
  expect((await server.api('GET', '/api/v1/me', { key: 'lk_not-a-real-key' })).status).toBe(401);
  await expect(app.locator('#sign-in-error')).toHaveText(/^This API key is not accepted/);

  await signInWith(app, alice, 'alice');
  const table = app.getByRole('table', { name: 'Your links, page 1' });
  await expect(table).toBeVisible();
  const rows = app.locator('#links-body tr:not(.details-row)');
  await expect(rows).toHaveCount(PAGE_SIZE);
  // Newest first, as the API lists them.
  await expect(rows.first().getByRole('rowheader')).toHaveText(`${server.url}/alice-22/`);
  await expect(table).not.toContainText('bob-only');
  await expectNoSeriousViolations(app, 'the links table');

  await app.getByRole('button', { name: 'Next page' }).click();
  await expect(app.getByRole('table', { name: 'Your links, page 2' })).toBeVisible();
  await expect(rows).toHaveCount(3);
  await expect(rows.last().getByRole('rowheader')).toHaveText(`${server.url}/alice-00/`);
  await expect(app.getByRole('button', { name: 'Next page' })).toBeDisabled();
  await app.getByRole('button', { name: 'Previous page' }).click();
  await expect(app.getByRole('table', { name: 'Your links, page 1' })).toBeVisible();
  await expect(rows).toHaveCount(PAGE_SIZE);

  await app.getByLabel('Search links').fill('ALICE-07');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('https://example.com/alice-07');
  await app.getByLabel('Search links').fill('');
  await expect(rows).toHaveCount(PAGE_SIZE);

  await app.getByLabel('Status').selectOption('disabled');
  await expect(app.getByText('No links match.')).toBeVisible();
  await app.getByLabel('Status').selectOption('active');
  await expect(rows).toHaveCount(PAGE_SIZE);

  // The key stays until "Sign out", and then nothing of it stays.
  await app.reload();
  await expect(app.getByText('Signed in as alice.')).toBeVisible();
  await expect(rows).toHaveCount(PAGE_SIZE);
  await app.getByRole('button', { name: 'Sign out' }).click();
  await expect(app.getByRole('table')).toBeHidden();
  await expect(app.getByLabel('API key')).toBeFocused();
  expect(await app.evaluate(() => ({ ...localStorage }))).toEqual({});
  await app.reload();
  await expect(app.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test('disables, enables, re-targets and deletes a link, each checked against the API and a real redirect', async ({
  app,
  server,
}) => {
  const alice = await server.createKey('alice');
  await makeLinks(server, alice, ['keep', 'work']);
  const shortUrl = `${server.url}/work/`;
  await signInWith(app, alice, 'alice');
  const row = app.getByRole('row').filter({ has: app.getByRole('rowheader', { name: shortUrl }) });
  await expect(row).toContainText('active');
  await expect(row.locator('td.number')).toHaveText(/^(0|—)$/); // clicks, or a dash where the server counts none

  await row.getByRole('button', { name: 'Disable' }).click();
  await expect(row).toContainText('disabled');
  await expect(row.getByRole('button', { name: 'Enable' })).toBeFocused();
  expect((await server.api('GET', '/api/v1/links/work', { key: alice })).body.data.status).toBe('disabled');
  expect((await server.resolve(shortUrl)).status).toBe(410);

  await row.getByRole('button', { name: 'Enable' }).click();
  await expect(row.getByRole('button', { name: 'Disable' })).toBeVisible();
  expect((await server.api('GET', '/api/v1/links/work', { key: alice })).body.data.status).toBe('active');
  expect(await server.resolve(shortUrl)).toEqual({ status: 302, location: 'https://example.com/work' });

  await row.getByRole('button', { name: 'Details' }).click();
  await expect(row.getByRole('button', { name: 'Hide' })).toHaveAttribute('aria-expanded', 'true');
  const details = app.locator('.details-row:not([hidden])');
  await expect(details.getByRole('img', { name: 'QR code of the short URL' }).locator('svg')).toBeVisible();
  // The clicks of the last 30 days, a bar a day (the redirect after Enable above was one).
  await expect(details.getByRole('img', { name: /^Clicks in the last 30 days: \d+$/ })).toBeVisible();
  await expect(details.locator('rect.chart-bar')).toHaveCount(30);
  await expectNoSeriousViolations(app, "a link's details");
  await details.getByLabel('Target URL').fill('https://example.org/moved');
  await details.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(row).toContainText('https://example.org/moved');
  expect((await server.api('GET', '/api/v1/links/work', { key: alice })).body.data.original_url).toBe(
    'https://example.org/moved',
  );
  expect(await server.resolve(shortUrl)).toEqual({ status: 302, location: 'https://example.org/moved' });

  await row.getByRole('button', { name: 'Delete' }).click();
  const dialog = app.getByRole('dialog', { name: 'Delete this link?' });
  await expect(dialog).toContainText(shortUrl);
  await expectNoSeriousViolations(app, 'the delete confirmation');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect((await server.resolve(shortUrl)).status).toBe(302);
  await row.getByRole('button', { name: 'Delete' }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(app.getByRole('rowheader', { name: shortUrl })).toHaveCount(0);
  await expect(app.getByRole('rowheader', { name: `${server.url}/keep/` })).toBeVisible();
  expect((await server.api('GET', '/api/v1/links/work', { key: alice })).status).toBe(404);
  expect((await server.resolve(shortUrl)).status).toBe(404);
});

test('a reload that lands late keeps other open details, what is typed in them and the focus there', async ({
  app,
  server,
}) => {
  const alice = await server.createKey('alice');
  await makeLinks(server, alice, ['first', 'second']);
  await signInWith(app, alice, 'alice');
  const first = app.locator('#links-body tr[data-code="first"]');
  const second = app.locator('#links-body tr[data-code="second"]');
  await expect(second).toBeVisible();
  // Hold the list reload that follows Disable until the person has moved on to another row.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await app.route(
    (url) => url.pathname.endsWith('/api/v1/links') && url.searchParams.has('status'),
    async (route) => {
      await held;
      await route.continue();
    },
  );
  await first.getByRole('button', { name: 'Disable' }).click();
  await expect
    .poll(async () => (await server.api('GET', '/api/v1/links/first', { key: alice })).body.data.status)
    .toBe('disabled');
  await second.getByRole('button', { name: 'Details' }).click();
  const target = app.locator('.details-row:not([hidden])').getByLabel('Target URL');
  await target.fill('https://example.org/half-typed');
  await expect(target).toBeFocused();

  release();
  await expect(first.getByRole('button', { name: 'Enable' })).toBeVisible();
  await expect(second.getByRole('button', { name: 'Hide' })).toHaveAttribute('aria-expanded', 'true');
  await expect(target).toHaveValue('https://example.org/half-typed');
  await expect(target).toBeFocused();

  // Its own save closes it, and the list shows the new target.
  await app.keyboard.press('Enter');
  await expect(second).toContainText('https://example.org/half-typed');
  await expect(second.getByRole('button', { name: 'Details' })).toHaveAttribute('aria-expanded', 'false');
  await expect(app.locator('.details-row:not([hidden])')).toHaveCount(0);
});

// Export and import are the server's `GET /api/v1/links/export` and `POST /api/v1/links/import`:
// the page saves exactly what the API exports, and imports a file as the API does.
test('exports the links as the API does, and imports a file through the API', async ({ app, server }) => {
  const alice = await server.createKey('alice');
  await makeLinks(server, alice, ['exported']);
  await signInWith(app, alice, 'alice');
  await expect(app.getByRole('rowheader', { name: `${server.url}/exported/` })).toBeVisible();
  await expectNoSeriousViolations(app, 'export and import');

  for (const format of ['csv', 'json'] as const) {
    const direct = await fetch(`${server.url}/api/v1/links/export?format=${format}`, {
      headers: { 'X-API-Key': alice },
    });
    expect(direct.status).toBe(200);
    await app.getByLabel('Export format').selectOption(format);
    const download = app.waitForEvent('download');
    await app.getByRole('button', { name: 'Export' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(new RegExp(`^linklet-links-\\d{4}-\\d{2}-\\d{2}\\.${format}$`));
    const chunks: Buffer[] = [];
    for await (const chunk of await file.createReadStream()) chunks.push(chunk as Buffer);
    const saved = Buffer.concat(chunks).toString('utf8');
    // Byte for byte (a CSV export starts with a BOM, for spreadsheets).
    if (format === 'csv') expect(Buffer.concat(chunks).equals(Buffer.from(await direct.arrayBuffer()))).toBe(true);
    else expect(JSON.parse(saved).links).toEqual((await direct.json()).links); // `exported_at` differs
    expect(saved).toContain(`${server.url}/exported/`);
    await expect(app.locator('#transfer-result')).toHaveText(`Saved ${file.suggestedFilename()}.`);
  }

  const csv = `code,short_url,original_url,created_at,expiration_date,status,clicks\nimported,${server.url}/imported/,https://example.com/imported,,,,\n`;
  await app.getByRole('button', { name: 'Import' }).click();
  await expect(app.locator('#transfer-error')).toHaveText('Choose a file to import first.');
  await app
    .getByLabel('Links file')
    .setInputFiles({ name: 'links.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await app.getByRole('button', { name: 'Import' }).click();
  await expect(app.locator('#transfer-result')).toHaveText('Created 1 of 1 link.');
  await expect(app.getByRole('rowheader', { name: `${server.url}/imported/` })).toBeVisible();
  expect(await server.resolve(`${server.url}/imported/`)).toEqual({
    status: 302,
    location: 'https://example.com/imported',
  });
  // The same file again: nothing new, and the row that was not created says why.
  await app.getByRole('button', { name: 'Import' }).click();
  await expect(app.locator('#transfer-result')).toHaveText(
    'Created 0 of 1 link. Already yours: 1 · code taken: 0 · not valid: 0 · skipped: 0.',
  );
  await expect(app.locator('#import-problems li')).toHaveCount(1);
  await expect(app.locator('#import-problems li')).toContainText(/^imported: \S/);
});

test.describe('in Korean', () => {
  test.use({ uiLocale: 'ko-KR' });

  test('the whole page speaks Korean: labels, buttons, expiry labels, dates, the table', async ({ app, server }) => {
    await expect(app.locator('html')).toHaveAttribute('lang', 'ko');
    await expect(app.getByRole('heading', { name: '링크 줄이기' })).toBeVisible();
    await expect(app.getByLabel('만료 기간')).toContainText('1주');
    await app.getByLabel('긴 URL').fill('https://example.com/한국어');
    await app.getByLabel('사용자 지정 코드').fill('안녕');
    await app.getByRole('button', { name: '줄이기' }).click();
    await expect(app.getByRole('textbox', { name: '짧은 URL' })).toHaveValue(`${server.url}/안녕/`);
    await expect(app.locator('#expires')).toHaveText(/오전|오후/);
    await expectNoSeriousViolations(app, 'the Korean page');

    const alice = await server.createKey('alice');
    await app.getByLabel('API 키').fill(alice);
    await app.getByRole('button', { name: '로그인' }).click();
    await expect(app.getByText('alice 계정으로 로그인했습니다.')).toBeVisible();
    const table = app.getByRole('table', { name: '내 링크, 1쪽' });
    await expect(table.getByRole('columnheader', { name: '대상' })).toBeVisible();
    await app.getByRole('button', { name: '로그아웃' }).click();
    await expect(app.getByRole('button', { name: '로그인' })).toBeVisible();
  });
});

test('keyboard only: Tab reaches every action, Enter and Space work them, focus is always visible', async ({
  app,
  server,
}) => {
  const alice = await server.createKey('alice');
  await makeLinks(server, alice, ['first', 'second']);
  const focused = () =>
    app.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      const style = getComputedStyle(element);
      return {
        id: element.id,
        action: element.dataset.action ?? '',
        code: element.closest('tr')?.dataset.code ?? '',
        name: element.getAttribute('aria-label') ?? element.textContent?.trim() ?? '',
        tag: element.tagName,
        visible: style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 1,
      };
    });
  /** Presses Tab until the focused element matches (at most 80 times), checking each stop shows focus. */
  const tabTo = async (matches: (f: Awaited<ReturnType<typeof focused>>) => boolean, what: string) => {
    for (let step = 0; step < 80; step++) {
      await app.keyboard.press('Tab');
      const now = await focused();
      if (now.tag !== 'BODY') expect(now.visible, `focus ring on ${now.tag}#${now.id} ${now.name}`).toBe(true);
      if (matches(now)) return;
    }
    throw new Error(`Tab never reached ${what}`);
  };

  await tabTo((f) => f.id === 'url', 'Long URL');
  await app.keyboard.type('https://example.com/by-keyboard');
  await tabTo((f) => f.id === 'code', 'Custom code');
  await app.keyboard.type('keys');
  await tabTo((f) => f.id === 'shorten', 'Shorten');
  await app.keyboard.press('Enter');
  await expect(app.getByRole('textbox', { name: 'Short URL' })).toHaveValue(`${server.url}/keys/`);
  expect((await focused()).id).toBe('copy');
  await app.keyboard.press(' ');
  await expect(app.getByRole('status')).toHaveText('Copied to the clipboard.');

  await tabTo((f) => f.id === 'api-key', 'API key');
  await app.keyboard.type(alice);
  await app.keyboard.press('Enter');
  await expect(app.getByText('Signed in as alice.')).toBeVisible();

  // One lap over the signed-in page: every control is a Tab stop.
  const stops = new Set<string>();
  await app.locator('#sign-out').focus();
  for (let step = 0; step < 60; step++) {
    const now = await focused();
    stops.add(now.action ? `${now.code}:${now.action}` : now.id);
    await app.keyboard.press('Tab');
  }
  for (const code of ['first', 'second']) {
    for (const action of ['copy', 'details', 'disable', 'delete']) expect(stops).toContain(`${code}:${action}`);
  }
  for (const id of ['sign-out', 'search', 'status-filter', 'export-format', 'export', 'import-file', 'import']) {
    expect(stops).toContain(id);
  }

  await app.locator('#sign-out').focus();
  await tabTo((f) => f.code === 'first' && f.action === 'disable', 'Disable of first');
  await app.keyboard.press('Enter');
  await expect
    .poll(async () => (await server.api('GET', '/api/v1/links/first', { key: alice })).body.data.status)
    .toBe('disabled');
  await expect.poll(async () => (await focused()).action).toBe('enable');
  await app.keyboard.press(' ');
  await expect
    .poll(async () => (await server.api('GET', '/api/v1/links/first', { key: alice })).body.data.status)
    .toBe('active');
  await expect.poll(async () => (await focused()).action).toBe('disable'); // the list has reloaded

  await app.locator('#sign-out').focus();
  await tabTo((f) => f.code === 'second' && f.action === 'details', 'Details of second');
  await app.keyboard.press('Enter');
  await tabTo((f) => f.tag === 'INPUT' && f.id.startsWith('target-'), 'Target URL');
  await app.keyboard.press('ControlOrMeta+A');
  await app.keyboard.type('https://example.org/typed');
  await app.keyboard.press('Enter');
  await expect
    .poll(async () => (await server.resolve(`${server.url}/second/`)).location)
    .toBe('https://example.org/typed');
  await expect(app.locator('#links-body tr[data-code="second"] .row-note')).toBeVisible(); // the list has reloaded

  await app.locator('#sign-out').focus();
  await tabTo((f) => f.code === 'second' && f.action === 'delete', 'Delete of second');
  await app.keyboard.press('Enter');
  await expect(app.getByRole('dialog')).toBeVisible();
  expect((await focused()).id).toBe('confirm-cancel');
  await app.keyboard.press('Escape'); // no
  await expect(app.getByRole('dialog')).toBeHidden();
  expect((await server.resolve(`${server.url}/second/`)).status).toBe(302);
  await app.locator('#sign-out').focus();
  await tabTo((f) => f.code === 'second' && f.action === 'delete', 'Delete of second');
  await app.keyboard.press('Enter');
  await tabTo((f) => f.id === 'confirm-delete-button', 'the dialog’s Delete');
  await app.keyboard.press(' ');
  await expect.poll(async () => (await server.resolve(`${server.url}/second/`)).status).toBe(404);

  await tabTo((f) => f.id === 'sign-out' || f.id === 'search', 'the links panel');
  await app.locator('#sign-out').focus();
  await app.keyboard.press('Enter');
  await expect(app.getByRole('button', { name: 'Sign in' })).toBeVisible();
});
