// `npm run bench:popup`: how long the popup takes to show its tab's URL, warm, in the built
// extension in a real Chromium (Debian's `/usr/bin/chromium`, or CHROMIUM_PATH, as the e2e tests
// use). It builds nothing when the builds are there: the extension (`npx wxt build`, into
// .output/chrome-mv3) and the server (`npx tsc -p tsconfig.server.json`, into dist/); a missing
// one is built with the same command the e2e global setup runs (test/e2e/global-setup.ts).
//
// The popup sets `performance.mark('linklet:url-shown')` when its URL field first shows the tab's
// URL; the figure is that mark's time from the popup document's navigation start, read in the
// popup after the real toolbar click (CDP `Extensions.triggerAction`, as test/e2e/popup-driver.ts
// does). Two cases, each POPUP_OPENS opens (default 20) after POPUP_WARMUP (default 3):
//
// - local mode, with 1,000 local links in the history (imported through the options page);
// - a server and an API key whose owner holds 5,000 links on the server: before every open the
//   key is switched between two of that owner's keys, so the background starts a full pull of
//   the 5,000 links and the popup opens while it is under way, as right after a key is set.
//
// Prints per case the p95 beside its target (< 150 ms), then p50 and max. Exits 0 whatever the
// figures (a measurement) and when there is no Chromium to measure in (it says so: `npm run bench`
// runs it on hosts without one); 1 only when it could not measure in the Chromium it found.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { startServer } from '../scripts/server-process.mjs';

const OPENS = Number(process.env.POPUP_OPENS ?? 20);
const WARMUP = Number(process.env.POPUP_WARMUP ?? 3);
const TARGET_MS = 150;
const LOCAL_LINKS = 1_000;
const SERVER_LINKS = 5_000;
const EXTENSION_DIR = resolve('.output/chrome-mv3');
const URL_SHOWN_MARK = 'linklet:url-shown';
const DAY_MS = 86_400_000;
// Two keys of one owner: switching between them makes the next pull a full one (sync-status.ts).
const OWNER_KEYS = [`lk_${'P'.repeat(43)}`, `lk_${'Q'.repeat(43)}`];

/** Builds what is missing, with the e2e global setup's own commands. */
function buildIfMissing() {
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  if (!existsSync(join(EXTENSION_DIR, 'manifest.json'))) {
    process.stderr.write('popup bench: no built extension; running `npx wxt build`\n');
    execFileSync(npx, ['wxt', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  if (!existsSync('dist/server/main.js')) {
    process.stderr.write('popup bench: no built server; running `npx tsc -p tsconfig.server.json`\n');
    execFileSync(npx, ['tsc', '-p', 'tsconfig.server.json'], { stdio: 'inherit' });
  }
}

/** The Chromium the e2e tests drive (test/e2e/launch-extension.ts `chromiumPath`). */
function chromiumPath() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  return chromium.executablePath();
}

/** Why the popup cannot be measured on this host (no Chromium to load the extension in), if so. */
function noChromium() {
  const path = chromiumPath();
  if (existsSync(path)) return undefined;
  return `no Chromium at ${path} (install Debian's chromium or set CHROMIUM_PATH)`;
}

/** Chromium with the built extension in a fresh profile, launched as the e2e tests launch it. */
async function launchExtension() {
  const args = [
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--lang=en-US',
    `--disable-extensions-except=${EXTENSION_DIR}`,
    `--load-extension=${EXTENSION_DIR}`,
    '--enable-unsafe-extension-debugging',
  ];
  if (process.getuid?.() === 0) args.unshift('--no-sandbox');
  const context = await chromium.launchPersistentContext('', {
    executablePath: chromiumPath(),
    headless: true,
    args,
    ignoreDefaultArgs: ['--disable-extensions'],
    env: { ...process.env, LANGUAGE: 'en-US' },
  });
  const worker =
    context.serviceWorkers().find((candidate) => candidate.url().startsWith('chrome-extension://')) ??
    (await context.waitForEvent('serviceworker', {
      predicate: (candidate) => candidate.url().startsWith('chrome-extension://'),
      timeout: 30_000,
    }));
  const extensionId = new URL(worker.url()).host;
  return { context, extensionId, origin: `chrome-extension://${extensionId}` };
}

/** A page to shorten on every path (the e2e tests' test site, reduced). */
async function startSite() {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><html lang="en"><title>Popup bench page</title><h1>A page</h1></html>');
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { origin, close: () => new Promise((done) => server.close(done)) };
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

async function poll(probe, description, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}`);
    await sleep(50);
  }
}

/**
 * Clicks the toolbar button on `page`'s tab and attaches to the popup (test/e2e/popup-driver.ts,
 * reduced to `evaluate`): Playwright does not hand the popup out as a page.
 */
async function openPopup(ext, page) {
  const cdp = await ext.context.browser().newBrowserCDPSession();
  const popupUrl = `${ext.origin}/popup.html`;
  const popups = async () =>
    (await cdp.send('Target.getTargets')).targetInfos.filter(
      (target) => target.type === 'page' && target.url.startsWith(popupUrl),
    );
  await page.bringToFront();
  const before = new Set((await popups()).map((target) => target.targetId));
  const { targetInfos } = await cdp.send('Target.getTargets', { filter: [{ type: 'tab' }] });
  const tab = targetInfos.find((candidate) => candidate.url === page.url());
  if (!tab) throw new Error(`no tab at ${page.url()}`);
  await cdp.send('Extensions.triggerAction', { id: ext.extensionId, targetId: tab.targetId });
  const targetId = await poll(
    async () => (await popups()).find((target) => !before.has(target.targetId))?.targetId,
    'the popup to open',
  );
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: false });
  const waiting = new Map();
  let nextId = 1;
  cdp.on('Target.receivedMessageFromTarget', (event) => {
    if (event.sessionId !== sessionId) return;
    const reply = JSON.parse(event.message);
    if (reply.id !== undefined) waiting.get(reply.id)?.(reply);
  });
  const evaluate = async (expression) => {
    const id = nextId++;
    const answered = new Promise((done) => waiting.set(id, done));
    const params = { expression, returnByValue: true, awaitPromise: true };
    await cdp.send('Target.sendMessageToTarget', {
      sessionId,
      message: JSON.stringify({ id, method: 'Runtime.evaluate', params }),
    });
    const reply = await answered;
    waiting.delete(id);
    if (reply.error || reply.result.exceptionDetails) {
      throw new Error(`in the popup: ${JSON.stringify(reply.error ?? reply.result.exceptionDetails)}`);
    }
    return reply.result.result.value;
  };
  return {
    evaluate,
    async close() {
      await cdp.send('Target.closeTarget', { targetId }).catch(() => undefined);
      await cdp.detach().catch(() => undefined);
    },
  };
}

/**
 * Opens the popup on `page` and reads the mark: its time from navigation start, once the URL field
 * shows `url`. Then calls `onShown` and waits for the popup's own shorten to settle, so opens do
 * not pile up.
 */
async function timeOneOpen(ext, page, url, onShown = async () => undefined) {
  const popup = await openPopup(ext, page);
  try {
    const shown = await poll(
      () =>
        popup.evaluate(`(() => {
          const mark = performance.getEntriesByName(${JSON.stringify(URL_SHOWN_MARK)})[0];
          const field = document.querySelector('#url');
          if (!mark || !field) return undefined;
          return { ms: mark.startTime, field: field.value, detail: mark.detail };
        })()`),
      'the URL-shown mark',
    );
    if (shown.field !== url || shown.detail !== url) {
      throw new Error(`the popup showed ${JSON.stringify(shown.field)}, not the tab's ${url}`);
    }
    await onShown();
    await poll(
      () =>
        popup.evaluate(`(() => {
          const status = document.querySelector('#status').textContent;
          return status !== '' && status !== 'Shortening…';
        })()`),
      "the popup's shorten",
    );
    return shown.ms;
  } finally {
    await popup.close();
  }
}

/** A Linklet history file of `count` local links (the options page's import reads it). */
function localHistoryFile(origin, count) {
  const now = Date.now();
  const links = Array.from({ length: count }, (_, i) => {
    const code = `pb${i.toString(36)}`;
    return {
      id: `popup-bench-${i}`,
      code,
      customCode: false,
      originalUrl: `https://example.com/popup-bench/${i}?ref=history`,
      shortUrl: `${origin}/open.html#/${code}/`,
      server: null,
      status: 'local',
      expire: '1month',
      createdAt: now - (count - i) * 1000,
      expiresAt: now + 30 * DAY_MS,
      attempts: 0,
    };
  });
  return JSON.stringify({ format: 'linklet-history', version: 1, exportedAt: new Date(now).toISOString(), links });
}

/** Imports `count` local links through the options page, as a person would. */
async function seedLocalHistory(ext, count) {
  const options = await ext.context.newPage();
  await options.goto(`${ext.origin}/options.html`);
  await options.locator('#import').setInputFiles({
    name: 'history.json',
    mimeType: 'application/json',
    buffer: Buffer.from(localHistoryFile(ext.origin, count)),
  });
  await poll(
    async () => (await options.locator('#data-status').textContent())?.includes(`${count} link`),
    'the history import',
    120_000,
  );
  await options.close();
}

/** The owner's links and two keys straight into a new SQLite database (as bench/scale.mjs seeds). */
async function seedServerDatabase(path) {
  const { openSqliteDatabase } = await import('../dist/server/stores/sqlite/sqlite-link-store.js');
  const db = openSqliteDatabase(path);
  const now = Date.now();
  db.prepare("INSERT INTO owners (id, name, created_at) VALUES (1, 'owner', ?)").run(now);
  const addKey = db.prepare('INSERT INTO api_keys (owner_id, key_hash, created_at) VALUES (1, ?, ?)');
  for (const key of OWNER_KEYS) addKey.run(createHash('sha256').update(key).digest('hex'), now);
  const insert = db.prepare(
    `INSERT INTO links (code_key, code, original_url, created_at, expires_at, owner_id, updated_at)
     VALUES (?, ?, ?, ?, ?, 1, ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < SERVER_LINKS; i++) {
      const code = `sv${i.toString(36).padStart(4, '0')}`;
      const at = now - (SERVER_LINKS - i) * 1000;
      insert.run(code, code, `https://example.com/popup-bench/server/${i}`, at, now + 30 * DAY_MS, at);
    }
  })();
  db.close();
}

/**
 * An extension page kept open to read and write the extension's storage, as the options page
 * does (the background's service worker may be stopped when idle; storage wakes it).
 */
async function controlPage(ext) {
  const page = await ext.context.newPage();
  await page.goto(`${ext.origin}/options.html`);
  return page;
}

/** Sets the server and key as the options page's Save does: the background's watch starts a sync. */
async function setServerAndKey(control, serverUrl, apiKey) {
  await control.evaluate(
    ({ serverUrl, apiKey }) =>
      chrome.storage.local.set({ settings: { serverUrl, apiKey, defaultExpire: '1week', autoCopy: true } }),
    { serverUrl, apiKey },
  );
}

/** The last pull's status for `apiKey`: undefined until a pull with that key has finished. */
async function pulledWith(control, apiKey) {
  const { syncStatus } = await control.evaluate(() => chrome.storage.local.get('syncStatus'));
  return syncStatus?.keyTail === apiKey.slice(-8) && syncStatus.pulledAt !== undefined ? syncStatus : undefined;
}

/** p50, p95 and max of `times` (ms). */
function summary(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] };
}

function report(label, times, note = '') {
  const { p50, p95, max } = summary(times);
  const verdict = p95 < TARGET_MS ? 'meets' : 'MISSES';
  const ms = (value) => value.toFixed(1);
  process.stdout.write(
    `popup, ${label}: URL shown p95 ${ms(p95)} ms (target < ${TARGET_MS} ms: ${verdict}); ` +
      `p50 ${ms(p50)} ms, max ${ms(max)} ms (${times.length} opens${note})\n`,
  );
}

async function measureLocal(site) {
  const ext = await launchExtension();
  try {
    await seedLocalHistory(ext, LOCAL_LINKS);
    const url = `${site.origin}/local-page`;
    const page = await ext.context.newPage();
    await page.goto(url);
    const times = [];
    for (let i = 0; i < WARMUP + OPENS; i++) {
      const ms = await timeOneOpen(ext, page, url);
      if (i >= WARMUP) times.push(ms);
    }
    report(`local, ${LOCAL_LINKS.toLocaleString('en-US')} links in history`, times);
  } finally {
    await ext.context.close();
  }
}

async function measureWithPull(site, dir) {
  const dbPath = join(dir, 'popup-bench.db');
  await seedServerDatabase(dbPath);
  const server = await startServer(
    { DATABASE_URL: `sqlite:${dbPath}`, LOG_LEVEL: 'warn', HOST: '127.0.0.1', RATE_LIMIT_PER_MINUTE: '0' },
    { log: 'discard' },
  );
  const ext = await launchExtension();
  try {
    const url = `${site.origin}/synced-page`;
    const page = await ext.context.newPage();
    await page.goto(url);
    const control = await controlPage(ext);
    const times = [];
    let underWay = 0;
    for (let i = 0; i < WARMUP + OPENS; i++) {
      const key = OWNER_KEYS[i % 2];
      await setServerAndKey(control, server.url, key);
      // Whether the pull the new key started was still running when the URL was shown.
      let pulledBeforeShown;
      const ms = await timeOneOpen(ext, page, url, async () => {
        pulledBeforeShown = await pulledWith(control, key);
      });
      if (i >= WARMUP) {
        times.push(ms);
        if (!pulledBeforeShown) underWay++;
      }
      const pulled = await poll(() => pulledWith(control, key), 'the pull of the server links', 180_000);
      if (pulled.error) throw new Error(`the pull failed: ${pulled.error}`);
    }
    report(
      `a key just set, its server holding ${SERVER_LINKS.toLocaleString('en-US')} of its links`,
      times,
      `; the pull under way when the URL showed in ${underWay} of them`,
    );
  } finally {
    await ext.context.close();
    await server.stop();
  }
}

async function main() {
  const skipped = noChromium();
  if (skipped) {
    process.stdout.write(`popup: skipped, ${skipped}; the target (URL shown p95 < ${TARGET_MS} ms) is not measured\n`);
    return;
  }
  buildIfMissing();
  const site = await startSite();
  const dir = mkdtempSync(join(tmpdir(), 'linklet-popup-bench-'));
  try {
    await measureLocal(site);
    await measureWithPull(site, dir);
  } finally {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`popup bench: could not measure: ${error instanceof Error ? error.stack : error}\n`);
  process.exit(1);
});
