import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, type RunningServer, startServer } from '../../scripts/server-process.mjs';
import { popupTab } from './extension-screens-fixtures.js';
import {
  expect,
  historyItemFor,
  openTab,
  popupError,
  popupWithResult,
  readHistory,
  syncNow,
  test,
} from './fixtures.js';
import { type ExtensionBrowser, launchExtension } from './launch-extension.js';
import { openPopup, type Popup } from './popup-driver.js';

// Two-way sync with an owner's API key, against a real server process (`node dist/server/main.js`
// on SQLite) that has an administrator's key, so owners' keys can be made and revoked over HTTP.

const ADMIN_KEY = 'e2e-admin-key-0123456789abcdef';

interface KeyedServer {
  url: string;
  /** A new owner key for `name`: its id (to revoke it) and the key itself. */
  makeKey(name: string): Promise<{ id: number; key: string }>;
  revokeKey(id: number): Promise<void>;
  /** Stops the server; `start` brings it back on the same port and database. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** `GET /api/v1/links/{code}` with `key`: the status and the link, as another client sees it. */
  link(
    key: string,
    code: string,
  ): Promise<{ status: number; data?: { clicks: number; original_url: string; status: string } }>;
}

const keyedServer = test.extend<{ server: KeyedServer }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires a destructuring pattern here.
  server: async ({}, use) => {
    const dir = await mkdtemp(join(tmpdir(), 'linklet-e2e-keys-'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: url,
      DATABASE_URL: `sqlite:${join(dir, 'linklet.db')}`,
      API_KEY: ADMIN_KEY,
      LOG_LEVEL: 'info',
    };
    let running: RunningServer | undefined = await startServer(env);
    const admin = { 'X-API-Key': ADMIN_KEY, 'Content-Type': 'application/json' };
    await use({
      url,
      async makeKey(name) {
        const response = await fetch(`${url}/api/v1/keys`, {
          method: 'POST',
          headers: admin,
          body: JSON.stringify({ name }),
        });
        expect(response.status).toBe(201);
        return ((await response.json()) as { data: { id: number; key: string } }).data;
      },
      async revokeKey(id) {
        expect((await fetch(`${url}/api/v1/keys/${id}`, { method: 'DELETE', headers: admin })).status).toBe(200);
      },
      async stop() {
        await running?.stop();
        running = undefined;
      },
      async start() {
        running = await startServer(env);
      },
      async link(key, code) {
        const response = await fetch(`${url}/api/v1/links/${encodeURIComponent(code)}`, {
          headers: { 'X-API-Key': key },
        });
        const body = (await response.json()) as { data?: { clicks: number; original_url: string; status: string } };
        return { status: response.status, data: body.data };
      },
    });
    await running?.stop();
    await rm(dir, { recursive: true, force: true });
  },
});

/** Sets the server and the API key in the options page; Test connection must name the key's owner. */
async function setServerWithKey(ext: ExtensionBrowser, serverUrl: string, key: string, owner: string): Promise<void> {
  const options = await openTab(ext, `${ext.origin}/options.html`);
  await options.locator('#server-url').fill(serverUrl);
  await expect(options.getByLabel('API key', { exact: true })).toHaveAttribute('type', 'password');
  await options.getByLabel('API key', { exact: true }).fill(key);
  await options.locator('#test-connection').click();
  await expect(options.locator('#connection-result')).toContainText(`the API key belongs to ${owner}`);
  await options.locator('#save').click();
  await expect(options.locator('#options-status')).toHaveText('Saved.');
  await options.close();
}

/** The `.clicks` text and the marks of the history item for `originalUrl`. */
function itemDetails(popup: Popup, originalUrl: string) {
  return popup.evaluate<{ clicks: string; fromServer: string | null } | null>(`(() => {
    const item = [...document.querySelectorAll('#history .history-item')]
      .find((li) => li.querySelector('.original-url').textContent === ${JSON.stringify(originalUrl)});
    return item ? { clicks: item.querySelector('.clicks')?.textContent ?? '', fromServer: item.dataset.fromServer ?? null } : null;
  })()`);
}

keyedServer(
  'a link made in profile A shows in profile B after one sync; deleted in B, it leaves A',
  async ({ ext, site, server }) => {
    const { key } = await server.makeKey('alice');
    const other = await launchExtension();
    try {
      await setServerWithKey(ext, server.url, key, 'alice');
      await setServerWithKey(other, server.url, key, 'alice');

      // Profile A: the toolbar makes the link on the server, as alice's.
      const madeUrl = site.url('/two-way/made-in-a');
      const a = await popupWithResult(ext, await openTab(ext, madeUrl));
      const code = new URL(a.shortUrl).pathname.split('/')[1] ?? '';
      expect((await server.link(key, code)).data?.original_url).toBe(madeUrl);
      await a.popup.close();

      // Profile B: opening the popup pulls it, marked as from the server, with its clicks.
      const b = await popupWithResult(other, await openTab(other, site.url('/two-way/b-page')));
      const pulled = await historyItemFor(b.popup, madeUrl, 'synced', 20_000);
      expect(pulled.shortUrl).toBe(a.shortUrl);
      const clicks = (await server.link(key, code)).data?.clicks;
      expect(await itemDetails(b.popup, madeUrl)).toEqual({ clicks: `${clicks} clicks`, fromServer: 'true' });
      expect(pulled.buttons.map((button) => button.action)).toEqual(['copy', 'open', 'disable', 'renew', 'delete']);

      // Deleted in B: gone from the server and from B's history.
      await b.popup.click(`#history .history-item[data-from-server="true"] button.delete`);
      expect(await b.popup.evaluate(`document.querySelector('.confirm-delete p').textContent`)).toContain(
        'its code becomes free for anyone',
      );
      await b.popup.click(`#history .history-item[data-from-server="true"] .confirm-yes`);
      await expect
        .poll(async () => (await readHistory(b.popup)).some((item) => item.originalUrl === madeUrl))
        .toBe(false);
      expect((await server.link(key, code)).status).toBe(404);
      expect(await popupError(b.popup)).toBe('');
      expect(b.popup.errors).toEqual([]);
      await b.popup.close();

      // Profile A: one sync and it has left the history too.
      await syncNow(ext);
      const again = await openPopup(ext, await openTab(ext, site.url('/two-way/a-again')));
      await again.waitFor(`document.querySelectorAll('#history .history-item').length > 0`, 'the history');
      expect((await readHistory(again)).map((item) => item.originalUrl)).not.toContain(madeUrl);
      expect(again.errors).toEqual([]);
      await again.close();
    } finally {
      await other.close();
    }
  },
);

keyedServer('a revoked key is said in the popup and in the options page', async ({ ext, site, server }) => {
  const { id, key } = await server.makeKey('bob');
  await setServerWithKey(ext, server.url, key, 'bob');
  await server.revokeKey(id);

  const popup = await openPopup(ext, await openTab(ext, site.url('/two-way/revoked')));
  await expect.poll(() => popupError(popup), { timeout: 20_000 }).toContain('refused the API key');
  await popup.close();

  const options = await openTab(ext, `${ext.origin}/options.html`);
  await expect(options.locator('#key-status')).toContainText('refused the API key');
  await options.locator('#test-connection').click();
  await expect(options.locator('#connection-result')).toContainText('refused the API key (401)');
  await options.close();
});

keyedServer(
  'Disable while the server is down is queued, shown as waiting, and sent when it is back',
  async ({ ext, site, server }) => {
    const { key } = await server.makeKey('carol');
    await setServerWithKey(ext, server.url, key, 'carol');
    const madeUrl = site.url('/two-way/to-disable');
    const made = await popupWithResult(ext, await openTab(ext, madeUrl));
    const code = new URL(made.shortUrl).pathname.split('/')[1] ?? '';
    await made.popup.close();

    await server.stop();
    const popup = await openPopup(ext, await openTab(ext, site.url('/two-way/offline')));
    // The popup shortens its tab on opening; its result must be in before Disable's, or it would
    // take the status line after it.
    await popup.waitFor(
      `(() => { const status = document.querySelector('#status')?.textContent ?? ''; return status !== '' && status !== 'Shortening…'; })()`,
      "the popup's own shorten of its tab",
    );
    await historyItemFor(popup, madeUrl, 'synced');
    await popup.click(`#history .history-item[data-status="synced"] button.disable`);
    await popup.waitFor(
      `document.querySelector('#history .history-item[data-queued="disable"]')`,
      'the queued Disable',
    );
    const queued = await popup.evaluate<{ note: string; buttons: string[] }>(`(() => {
    const item = document.querySelector('#history .history-item[data-queued="disable"]');
    return { note: item.querySelector('.queued').textContent, buttons: [...item.querySelectorAll('.actions button')].map((b) => b.className) };
  })()`);
    expect(queued).toEqual({
      note: 'Disable waiting for the server.',
      buttons: ['copy', 'open', 'enable', 'renew', 'delete'],
    });
    // The background lists the queued Disable as soon as it is recorded, and the popup may redraw
    // its history from that before the Disable's own answer comes back and fills the status line.
    await popup.waitFor(
      `document.querySelector('#status').textContent === 'Saved here; sent when the server can be reached.'`,
      'the status line saying the Disable waits for the server',
    );
    await popup.close();

    await server.start();
    await syncNow(ext);
    expect((await server.link(key, code)).data?.status).toBe('disabled');
  },
);

keyedServer(
  "a synced link's title and tags from the server are searched and filtered in the popup; Renew on the live link sets its expiry on the server",
  async ({ ext, server }) => {
    const { key } = await server.makeKey('dana');
    // Made by another client (the web app, the API) with a title and tags, live for a day.
    for (const [code, title, tags] of [
      ['trip', 'Jeju trip plan', ['travel', '가족']],
      ['memo', 'Team memo', ['work']],
    ] as const) {
      const made = await fetch(`${server.url}/api/v1/shorten`, {
        method: 'POST',
        headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          original_url: `https://example.com/${code}`,
          custom_code: code,
          expire_duration: '24h',
          title,
          tags,
        }),
      });
      expect(made.status).toBe(201);
    }
    await setServerWithKey(ext, server.url, key, 'dana');

    const popup = await popupTab(ext);
    const trip = popup.locator('#history .history-item', { hasText: 'Jeju trip plan' });
    await expect(trip).toBeVisible({ timeout: 20_000 });
    await expect(trip.locator('.tag-chip')).toHaveText(['travel', '가족']);
    await expect(popup.locator('#tag-filter option')).toHaveText(['all tags', 'travel', 'work', '가족']);
    await trip.getByRole('button', { name: '가족', exact: true }).click();
    await expect(popup.locator('#history .history-item')).toHaveCount(1);
    await popup.locator('#tag-filter').selectOption('');
    await popup.locator('#search').fill('team');
    await expect(popup.locator('#history .history-item')).toHaveText([/Team memo/]);
    await popup.locator('#search').fill('');

    // Renewing the live link asks the server, which moves its expiry; the entry shows the new one.
    await trip.locator('select.renew-duration').selectOption('1month');
    await trip.locator('button.renew').click();
    await expect(popup.locator('#status')).toContainText('Renewed: the link works until ');
    const until = ((await popup.locator('#status').textContent()) ?? '').replace(
      /^Renewed: the link works until |\.$/g,
      '',
    );
    await expect(trip.locator('.muted').first()).toContainText(until);
    const read = await fetch(`${server.url}/api/v1/links/trip`, { headers: { 'X-API-Key': key } });
    const { data } = (await read.json()) as { data: { expiration_date: string } };
    expect(Date.parse(data.expiration_date)).toBeGreaterThan(Date.now() + 27 * 24 * 3600_000);
    await expect(popup.locator('#error')).toBeHidden();
    await popup.close();
  },
);
