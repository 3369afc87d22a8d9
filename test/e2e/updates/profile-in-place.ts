import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { type BrowserContext, chromium, expect, type Page } from '@playwright/test';
import { chromiumPath } from '../launch-extension.js';

/** Chromium on a profile that lasts across launches, with the unpacked extension of one folder. */
export interface ProfileBrowser {
  context: BrowserContext;
  /** `chrome-extension://<id>`: the same for every build put in the folder, as after an update. */
  origin: string;
  close(): Promise<void>;
}

/**
 * Puts `build` in `folder` in place of what was there, as a user updating an unpacked extension
 * does: same folder, so the same extension id, its IndexedDB and storage kept.
 */
export function putBuildInFolder(build: string, folder: string): void {
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  cpSync(build, folder, { recursive: true });
}

/**
 * The id Chromium gives an unpacked extension: the SHA-256 of its folder's path, its first 32 hex
 * digits written with the letters a–p. Known before launch, so no wait on a worker that an
 * earlier build left registered and that Chromium may not start until something asks.
 */
export function unpackedExtensionId(folder: string): string {
  const hex = createHash('sha256').update(folder).digest('hex').slice(0, 32);
  return [...hex].map((digit) => String.fromCharCode(97 + Number.parseInt(digit, 16))).join('');
}

/** Launches Chromium on `profile` (kept on close) with the extension in `folder`. */
export async function launchProfile(profile: string, folder: string): Promise<ProfileBrowser> {
  const args = [
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--lang=en-US',
    `--disable-extensions-except=${folder}`,
    `--load-extension=${folder}`,
    // Lets CDP's Extensions.loadUnpacked apply an update to the running browser (`updateInPlace`).
    '--enable-unsafe-extension-debugging',
  ];
  // Chromium's sandbox cannot start as root (containers, CI).
  if (process.getuid?.() === 0) args.unshift('--no-sandbox');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args,
    ignoreDefaultArgs: ['--disable-extensions'],
    env: { ...process.env, LANGUAGE: 'en-US' },
  });
  return { context, origin: `chrome-extension://${unpackedExtensionId(folder)}`, close: () => context.close() };
}

/**
 * Applies `build` to the running browser as a store applies an update: the folder's contents
 * replaced (same path, so the same extension id, its data kept), then CDP `Extensions.loadUnpacked`
 * on that path, which Chromium takes as an update of the installed extension. Unlike a folder
 * replaced while the browser is closed (its earlier service worker then stays registered, at a
 * higher version too: docs/updates-extension.md), the background and the pages come back together
 * at the new build, as after a store's update. Resolves the extension id Chromium names.
 */
export async function updateInPlace(browser: ProfileBrowser, build: string, folder: string): Promise<string> {
  const cdpBrowser = browser.context.browser();
  if (!cdpBrowser) throw new Error('The persistent context has no Browser to open a CDP session on.');
  putBuildInFolder(build, folder);
  const cdp = await cdpBrowser.newBrowserCDPSession();
  try {
    const { id } = (await cdp.send('Extensions.loadUnpacked', { path: folder })) as { id: string };
    return id;
  } finally {
    await cdp.detach();
  }
}

/** The version the background's replies name; '' for one that names none (releases before 0.2.0). */
export async function backgroundVersion(browser: ProfileBrowser): Promise<string> {
  const page = await browser.context.newPage();
  try {
    await page.goto(`${browser.origin}/open.html`);
    return await page.evaluate(async () => {
      // A release before builds said so answers nothing (the message's port closes unanswered).
      const reply = await chrome.runtime.sendMessage({ type: 'linklet:build' }).catch(() => undefined);
      return typeof reply?.version === 'string' ? reply.version : '';
    });
  } finally {
    await page.close().catch(() => undefined);
  }
}

/** The restarts pages asked of the extension (`restartForBuild`), as `storage.local` records them. */
export async function restartsAsked(browser: ProfileBrowser): Promise<unknown> {
  const page = await browser.context.newPage();
  try {
    await page.goto(`${browser.origin}/open.html`);
    return await page.evaluate(async () => (await chrome.storage.local.get('buildRestarts')).buildRestarts ?? null);
  } finally {
    await page.close().catch(() => undefined);
  }
}

/** The popup's page in a tab: its form and history, as the release in the folder draws them. */
export async function popupTab(browser: ProfileBrowser): Promise<Page> {
  const page = await browser.context.newPage();
  await page.goto(`${browser.origin}/popup.html`);
  return page;
}

/**
 * The popup's page in a tab once the background's service worker controls it: releases before
 * the typed API fetched their bundled backend from the page, which only a controlling worker
 * answers (not yet on the first page after install, so it is loaded again).
 */
export async function controlledPopupTab(browser: ProfileBrowser): Promise<Page> {
  const page = await popupTab(browser);
  await expect
    .poll(async () => {
      const controlled = await page.evaluate(() => navigator.serviceWorker.controller !== null);
      if (!controlled) await page.reload();
      return controlled;
    })
    .toBe(true);
  return page;
}

declare const chrome: {
  runtime: { sendMessage(message: unknown): Promise<{ build?: unknown; version?: unknown } | undefined> };
  storage: { local: { get(key: string): Promise<Record<string, unknown>> } };
};
