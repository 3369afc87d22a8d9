import { execFileSync } from 'node:child_process';
import { firefoxPath } from './firefox/launch-firefox.js';
import { chromiumPath } from './launch-extension.js';

/**
 * Runs once before the tests: fails early when a browser to drive is missing, then builds what
 * the tests drive: the extension for Chromium (`.output/chrome-mv3`) and for Firefox
 * (`.output/firefox-mv2`), the companion server into `dist/`, its web app into `dist/webapp`, and
 * Shlink's web client page into `dist/shlink-web-client`.
 */
export default function globalSetup(): void {
  console.log(`e2e: Chromium at ${chromiumPath()}, Firefox at ${firefoxPath()}`);
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  execFileSync(npx, ['wxt', 'build'], { stdio: 'inherit' });
  execFileSync(npx, ['wxt', 'build', '-b', 'firefox'], { stdio: 'inherit' });
  execFileSync(npx, ['tsc', '-p', 'tsconfig.server.json'], { stdio: 'inherit' });
  execFileSync(npx, ['vite', 'build', '-c', 'vite.webapp.config.ts'], { stdio: 'inherit' });
  execFileSync(npx, ['vite', 'build', '-c', 'test/e2e/shlink-web-client/vite.config.ts'], { stdio: 'inherit' });
}
