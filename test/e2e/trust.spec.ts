import {
  clipboardText,
  contextMenuClick,
  expect,
  openTab,
  popupError,
  popupWithResult,
  readHistory,
  setServer,
  test,
} from './fixtures.js';
import { launchThenInstall } from './launch-extension.js';
import { startLyingCompanion } from './lying-companion.js';
import { openPopup } from './popup-driver.js';

// The extension trusts nothing it is told: not a companion server's reply, not what an older
// version (or a tampered profile) left in its history. And its very first popup works.

test("a lying server's data: short URL is never shown, copied, stored or opened", async ({ ext, site }) => {
  const liar = await startLyingCompanion({ short_url: 'data:text/html,<script>document.title="pwned"</script>' });
  try {
    await setServer(ext, liar.url);
    const page = await openTab(ext, site.url('/trust/data-url'));
    await ext.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.origin });
    await page.evaluate(() => navigator.clipboard.writeText('what the user copied before'));

    const popup = await openPopup(ext, page);
    await popup.waitFor(`!document.querySelector('#error').hidden`, 'the refusal in the popup');
    expect(await popupError(popup)).toMatch(/^The server's answer was refused: its short_url \("data:text\/html,/);
    expect(liar.shortens()).toBe(1);
    expect(await popup.evaluate(`document.querySelector('#result').hidden`)).toBe(true);
    expect(await popup.evaluate(`document.querySelector('#short-url').value`)).toBe('');
    expect(await readHistory(popup)).toEqual([]);
    await popup.close();

    expect(await clipboardText(ext, page)).toBe('what the user copied before');
    const opened = ext.context.pages().map((open) => open.url());
    expect(opened.filter((url) => /^(data|file|chrome|javascript):/i.test(url))).toEqual([]);
  } finally {
    await liar.close();
  }
});

test('a history from before the checks: bad dates still list, a data: URL has no Copy or Open, a homograph shows in punycode', async ({
  ext,
  site,
}) => {
  const made = await contextMenuClick(ext, { menuItemId: 'linklet-shorten-link', linkUrl: site.url('/trust/good') });
  expect(made?.shortUrl).toMatch(/#\/[^/]+\/$/);
  // Written straight into the extension's IndexedDB, as an older version stored replies.
  const options = await openTab(ext, `${ext.origin}/options.html`);
  await options.evaluate(
    ({ origin, now }) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('linklet');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction('history', 'readwrite');
          const base = { customCode: false, expire: '1week', attempts: 0, createdAt: now };
          tx.objectStore('history').put({
            ...base,
            id: 'tampered',
            code: 'tamper1',
            originalUrl: 'https://example.com/tampered',
            shortUrl: 'data:text/html,<script>alert(1)</script>',
            server: 'http://127.0.0.1:9',
            status: 'synced',
            expiresAt: 1e300,
          });
          tx.objectStore('history').put({
            ...base,
            id: 'homograph',
            code: 'homo234',
            originalUrl: 'https://аpple.com/login',
            shortUrl: `${origin}/open.html#/homo234/`,
            server: null,
            status: 'local',
            expiresAt: Number.NaN,
            createdAt: now + 1,
          });
          tx.oncomplete = () => {
            db.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    { origin: ext.origin, now: Date.now() },
  );
  await options.close();

  const page = await openTab(ext, site.url('/trust/history'));
  const { popup } = await popupWithResult(ext, page);
  await expect.poll(async () => (await readHistory(popup)).length).toBe(4);
  const items = await readHistory(popup);
  const tampered = items.find((item) => item.originalUrl === 'https://example.com/tampered');
  expect(tampered?.buttons.map((button) => button.action)).toEqual(['delete']);
  expect(items.map((item) => item.originalUrl)).toContain('https://xn--pple-43d.com/login');
  expect(
    await popup.evaluate(
      `[...document.querySelectorAll('#history .history-item')].find((li) => li.dataset.id === 'tampered').querySelector('.muted').textContent`,
    ),
  ).toMatch(/^Expires \? /);

  // The bad record can be deleted like any other.
  await popup.evaluate(
    `[...document.querySelectorAll('#history .history-item')].find((li) => li.dataset.id === 'tampered').querySelector('button.delete').click()`,
  );
  await popup.evaluate(`document.querySelector('#history .confirm-yes').click()`);
  await expect.poll(async () => (await readHistory(popup)).length).toBe(3);
  expect(popup.errors).toEqual([]);
  await popup.close();
});

test('the first popup, opened the moment the worker of a fresh install appears, shortens in local mode', async ({
  site,
}) => {
  const browser = await launchThenInstall();
  try {
    const page = await browser.context.newPage();
    await page.goto(site.url('/trust/first-run'));
    const ext = await browser.install();
    const { popup, shortUrl } = await popupWithResult(ext, page);
    expect(shortUrl.startsWith(`${ext.origin}/open.html#/`)).toBe(true);
    expect(await popupError(popup)).toBe('');
    expect(popup.errors).toEqual([]);
    await popup.close();
  } finally {
    await browser.context.close();
  }
});

test('the popup shortens in local mode even when no service worker controls it', async ({ ext, site }) => {
  // What the first popup after a fresh install can be: a page the worker does not control yet
  // (`navigator.serviceWorker.controller === null`), so none of its fetches reach the worker.
  // DevTools' "bypass for network" makes that certain, whenever the worker activates.
  const popup = await ext.context.newPage();
  const cdp = await ext.context.newCDPSession(popup);
  await cdp.send('Network.enable');
  await cdp.send('Network.setBypassServiceWorker', { bypass: true });
  await popup.goto(`${ext.origin}/popup.html`);
  // The backend's own health check, answered by the worker to any page it controls, does not reach it.
  const health = await popup.evaluate(() =>
    fetch('/health').then(
      (response) => response.status,
      () => 'failed',
    ),
  );
  expect(health).not.toBe(200);

  const url = site.url('/trust/uncontrolled');
  await popup.locator('#url').fill(url);
  await popup.locator('#shorten').click();
  await expect(popup.locator('#short-url')).toHaveValue(new RegExp(`^${ext.origin}/open\\.html#/[^/]+/$`));
  await expect(popup.locator('#error')).toBeHidden();
  await expect(popup.locator('#history .history-item .original-url').first()).toHaveText(url);
});
