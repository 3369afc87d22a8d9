import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type BrowserContext, chromium, type Worker } from '@playwright/test';
import type { LaunchOptions } from './cross-browser/extension-under-test.js';

/** The built Chrome extension (`npx wxt build`; the global setup builds it). */
export const EXTENSION_DIR = resolve('.output/chrome-mv3');

const INSTALL_HINT =
  'install one (Debian/Ubuntu: `sudo apt-get install chromium`, or `npx playwright install chromium`) ' +
  'or set CHROMIUM_PATH to a Chromium or Chrome binary.';

/**
 * The Chromium to drive: `CHROMIUM_PATH` if set, else Debian's `/usr/bin/chromium`, else the
 * browser Playwright downloaded. Playwright cannot download one here, so say how to get one.
 */
export function chromiumPath(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) {
      throw new Error(`CHROMIUM_PATH is ${fromEnv}, which does not exist; ${INSTALL_HINT}`);
    }
    return fromEnv;
  }
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  let bundled = '';
  try {
    bundled = chromium.executablePath();
  } catch {
    // No Playwright browser registered: fall through to the message.
  }
  if (bundled && existsSync(bundled)) return bundled;
  throw new Error(`No Chromium found for the end-to-end tests; ${INSTALL_HINT}`);
}

export interface ExtensionBrowser {
  context: BrowserContext;
  /** The extension's id, the host of its `chrome-extension://` URLs. */
  extensionId: string;
  /** `chrome-extension://<id>`, no trailing slash. */
  origin: string;
  /** The background service worker (where `self.linklet` lives). */
  serviceWorker(): Promise<Worker>;
  close(): Promise<void>;
}

/** Launches Chromium with the built extension in a fresh, throwaway profile. */
export async function launchExtension(options: LaunchOptions = {}): Promise<ExtensionBrowser> {
  const context = await launchChromium(options, [
    `--disable-extensions-except=${EXTENSION_DIR}`,
    `--load-extension=${EXTENSION_DIR}`,
  ]);
  try {
    return await extensionIn(context, await backgroundWorker(context));
  } catch (error) {
    await context.close();
    throw error;
  }
}

/**
 * Chromium without the extension, and a way to install it later (CDP `Extensions.loadUnpacked`),
 * as a user does from the store: resolves as soon as the new extension's worker appears, the
 * moment its first popup may be opened.
 */
export async function launchThenInstall(): Promise<{ context: BrowserContext; install(): Promise<ExtensionBrowser> }> {
  const context = await launchChromium({}, []);
  return {
    context,
    async install() {
      const browser = context.browser();
      if (!browser) throw new Error('The persistent context has no Browser to open a CDP session on.');
      const appeared = context.waitForEvent('serviceworker', {
        predicate: (worker) => worker.url().startsWith('chrome-extension://'),
        timeout: 30_000,
      });
      const cdp = await browser.newBrowserCDPSession();
      await cdp.send('Extensions.loadUnpacked', { path: EXTENSION_DIR });
      await cdp.detach();
      return extensionIn(context, await appeared);
    },
  };
}

function extensionIn(context: BrowserContext, worker: Worker): ExtensionBrowser {
  const extensionId = new URL(worker.url()).host;
  return {
    context,
    extensionId,
    origin: `chrome-extension://${extensionId}`,
    // The worker may be stopped when idle and started again: look it up each time.
    serviceWorker: () => backgroundWorker(context),
    close: () => context.close(),
  };
}

async function launchChromium(options: LaunchOptions, extensionArgs: string[]): Promise<BrowserContext> {
  if (!existsSync(resolve(EXTENSION_DIR, 'manifest.json'))) {
    throw new Error(`${EXTENSION_DIR} has no manifest.json; build the extension with \`npx wxt build\`.`);
  }
  const args = [
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    // The UI language decides the extension's messages; the tests read English ones.
    `--lang=${options.lang ?? 'en-US'}`,
    ...extensionArgs,
    // Lets CDP's Extensions.triggerAction click the toolbar button (and loadUnpacked install).
    '--enable-unsafe-extension-debugging',
  ];
  // Chromium's sandbox cannot start as root (containers, CI); everyone else keeps it.
  if (process.getuid?.() === 0) args.unshift('--no-sandbox');
  // '' = a fresh temporary user-data dir, deleted on close.
  return chromium.launchPersistentContext('', {
    executablePath: chromiumPath(),
    headless: true,
    args,
    // Playwright would add --disable-extensions, which also refuses a later install.
    ignoreDefaultArgs: ['--disable-extensions'],
    // Downloads (the history export) are kept until the context closes.
    acceptDownloads: true,
    // On Linux the UI language (which picks the extension's messages) comes from LANGUAGE;
    // `--lang` above covers the other systems.
    env: { ...process.env, LANGUAGE: options.lang ?? 'en-US' },
  });
}

async function backgroundWorker(context: BrowserContext): Promise<Worker> {
  const running = context.serviceWorkers().find((worker) => worker.url().startsWith('chrome-extension://'));
  if (running) return running;
  return context.waitForEvent('serviceworker', {
    predicate: (worker) => worker.url().startsWith('chrome-extension://'),
    timeout: 30_000,
  });
}
