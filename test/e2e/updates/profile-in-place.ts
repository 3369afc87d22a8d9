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
 * The build the background's replies name, asked from an extension page that calls nothing
 * itself; '' for a background that names none (a build from before builds said so).
 */
export async function backgroundBuild(browser: ProfileBrowser): Promise<string> {
  const page = await browser.context.newPage();
  try {
    await page.goto(`${browser.origin}/open.html`);
    return await page.evaluate(async () => {
      const reply = await chrome.runtime.sendMessage({ type: 'linklet:call', method: 'listHistory', args: [{}] });
      return typeof reply?.build === 'string' ? reply.build : '';
    });
  } finally {
    await page.close().catch(() => undefined);
  }
}

/**
 * What a launch's background is, for a failed launch's message: its reply (or the error), the
 * restarts asked for recorded in `storage.local`, and the service workers Chromium runs.
 */
async function backgroundState(browser: ProfileBrowser): Promise<string> {
  const page = await browser.context.newPage();
  try {
    await page.goto(`${browser.origin}/open.html`);
    const state = await page.evaluate(async () => {
      const reply = await chrome.runtime.sendMessage({ type: 'linklet:call', method: 'listHistory', args: [{}] }).then(
        (answer) => JSON.stringify(answer)?.slice(0, 120),
        (error: Error) => `error: ${error.message}`,
      );
      const { buildRestarts } = await chrome.storage.local.get('buildRestarts');
      return `reply ${reply}; restarts ${JSON.stringify(buildRestarts)}`;
    });
    return `${state}; workers ${JSON.stringify(browser.context.serviceWorkers().map((worker) => worker.url()))}`;
  } catch (error) {
    return `no extension page: ${(error as Error).message}`;
  } finally {
    await page.close().catch(() => undefined);
  }
}

/**
 * Chromium on `profile` once the extension in `folder` answers with today's build: launched until
 * it does, at most five times. After an update in place, Chromium brings a command-line
 * extension's reload back at its next start; a browser closed while that reload was still under
 * way (a busy machine: seen in CI, 42 s for a test that takes 20, and three launches none of which
 * answered with today's build) started without it; a start can also find the extension blocked
 * while Chromium reloads it, back at the next start. Between launches the popup is opened, as a
 * person would: a page that finds another build's background asks for the restart again
 * (`restartForBuild`). A failed launch says what it found. What the update kept is checked
 * after, whichever launch it was.
 */
export async function launchUntilBackgroundAnswers(profile: string, folder: string): Promise<ProfileBrowser> {
  const launches = 5;
  for (let launch = 1; ; launch++) {
    const browser = await launchProfile(profile, folder);
    const answered = await expect
      .poll(() => backgroundBuild(browser).catch(() => ''), { timeout: 20_000 })
      .not.toBe('')
      .then(
        () => true,
        async (error: unknown) => {
          const state = await backgroundState(browser);
          if (launch === launches) throw new Error(`After ${launches} launches: ${state}`, { cause: error });
          console.log(`Launch ${launch} found no background of today's build (${state}); opening the popup.`);
          return false;
        },
      );
    if (answered) return browser;
    const popup = await popupTab(browser).catch(() => undefined);
    await popup?.waitForEvent('close', { timeout: 10_000 }).catch(() => undefined);
    await browser.close();
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
  runtime: { sendMessage(message: unknown): Promise<{ build?: unknown } | undefined> };
  storage: { local: { get(key: string): Promise<Record<string, unknown>> } };
};
