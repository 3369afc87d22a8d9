#!/usr/bin/env node
// Takes docs/omnibox.png: the extension's `ln` keyword in Chromium's address bar, with its
// suggestion line. Playwright cannot see the browser's own UI (the address bar, its dropdown), so
// this drives a real headed Chromium on a virtual X display (Xvfb): xdotool types as a person
// does and ImageMagick's `import` captures the screen. Opt-in, like `npm run screenshots`, and
// not part of `npm test`: CI needs none of Xvfb, xdotool or ImageMagick.
//
//   apt-get install -y xvfb xdotool imagemagick   # once
//   node scripts/omnibox-screenshot.mjs           # builds the extension, then writes docs/omnibox.png
//
// Options: --no-build (use .output/chrome-mv3 as it is), --out=<file>. CHROMIUM_PATH picks the
// browser (else /usr/bin/chromium, as the end-to-end tests do). OMNIBOX_WAIT_MS (1500) is how long
// after the last keystroke the picture is taken: at 100 it shows whether the line keeps up with
// typing (0.4.0's was one or two characters behind there).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium } from '@playwright/test';

const args = process.argv.slice(2);
const out = resolve(args.find((arg) => arg.startsWith('--out='))?.slice(6) ?? 'docs/omnibox.png');
const extension = resolve('.output/chrome-mv3');
const browserPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const display = `:${90 + (process.pid % 9)}`;
// The window, and the part of it the picture keeps: the toolbar and the suggestions under it.
const WINDOW = { width: 1000, height: 620 };
const CROP = { width: 1000, height: 150 };
// The server the suggestion speaks of: only its being set matters (nothing is sent to it).
const SERVER = 'https://sho.example';
const TYPED = 'https://example.com/articles/hello-linklet';

for (const [tool, hint] of [
  ['Xvfb', 'xvfb'],
  ['xdotool', 'xdotool'],
  ['import', 'imagemagick'],
]) {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
  } catch {
    console.error(`omnibox-screenshot: ${tool} is missing; install it with \`apt-get install -y ${hint}\`.`);
    process.exit(1);
  }
}
if (!existsSync(browserPath)) {
  console.error(`omnibox-screenshot: no Chromium at ${browserPath}; set CHROMIUM_PATH.`);
  process.exit(1);
}
if (!args.includes('--no-build')) execFileSync('npx', ['wxt', 'build'], { stdio: 'inherit' });

const env = { ...process.env, DISPLAY: display };
const xdotool = (...words) => execFileSync('xdotool', words, { env, encoding: 'utf8' }).trim();
const profile = mkdtempSync(join(tmpdir(), 'linklet-omnibox-'));
const started = [];

try {
  const xvfb = spawn('Xvfb', [display, '-screen', '0', `${WINDOW.width}x${WINDOW.height}x24`, '-nolisten', 'tcp'], {
    stdio: 'ignore',
  });
  started.push(xvfb);
  await sleep(1000);

  const browser = spawn(
    browserPath,
    [
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      `--user-data-dir=${profile}`,
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-sync',
      '--disable-component-update',
      '--password-store=basic',
      '--lang=en-US',
      '--window-position=0,0',
      `--window-size=${WINDOW.width},${WINDOW.height}`,
      // Chromium 137 and later take --load-extension only with this feature off.
      '--disable-features=DisableLoadExtensionCommandLineSwitch',
      `--disable-extensions-except=${extension}`,
      `--load-extension=${extension}`,
      '--remote-debugging-port=0',
      'about:blank',
    ],
    { env, stdio: 'ignore' },
  );
  started.push(browser);

  // The settings as the options page saves them, through the extension's own worker.
  const port = await devToolsPort(profile);
  const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  const [context] = cdp.contexts();
  const worker =
    context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ??
    (await context.waitForEvent('serviceworker', { timeout: 20_000 }));
  await worker.evaluate(
    (server) =>
      chrome.storage.local.set({ settings: { serverUrl: server, apiKey: '', defaultExpire: '1week', autoCopy: true } }),
    SERVER,
  );

  // A person's keystrokes: focus the address bar, the keyword, a space (the keyword takes over),
  // then the URL; the suggestion line shows what Enter will do.
  const window = xdotool('search', '--sync', '--onlyvisible', '--class', 'chromium').split('\n')[0];
  // Xvfb runs no window manager, so the window is given the keyboard directly.
  xdotool('windowfocus', '--sync', window);
  await sleep(500);
  xdotool('key', '--window', window, 'ctrl+l');
  await sleep(300);
  xdotool('type', '--delay', '80', 'ln');
  xdotool('key', 'space');
  await sleep(600);
  xdotool('type', '--delay', '30', TYPED);
  // The line must name the whole URL once typing stops (the background redraws it for the last
  // keystroke too; see extension/service/omnibox.ts).
  await sleep(Number(process.env.OMNIBOX_WAIT_MS ?? 1500));

  const crop = `${CROP.width}x${CROP.height}+0+0`;
  execFileSync('import', ['-display', display, '-window', 'root', '-crop', crop, '+repage', '-strip', out], { env });
  console.log(`omnibox-screenshot: wrote ${out}`);
  await cdp.close().catch(() => undefined);
} finally {
  for (const child of started.reverse()) child.kill();
  await sleep(300);
  rmSync(profile, { recursive: true, force: true });
}

/** The port Chromium chose for DevTools, from the file it writes into its profile once it listens. */
async function devToolsPort(dir) {
  const file = join(dir, 'DevToolsActivePort');
  for (let waited = 0; waited < 20_000; waited += 200) {
    if (existsSync(file)) {
      const port = readFileSync(file, 'utf8').split('\n')[0];
      if (port) return Number(port);
    }
    await sleep(200);
  }
  throw new Error('Chromium did not open its DevTools port within 20 s.');
}
