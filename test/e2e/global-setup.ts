import { execFileSync } from 'node:child_process';
import { chromiumPath } from './launch-extension.js';

/**
 * Runs once before the tests: fails early when there is no Chromium to drive, then builds what the
 * tests drive, as the README's quickstart does: the extension into `.output/chrome-mv3`, the
 * companion server into `dist/` and its web app into `dist/webapp`.
 */
export default function globalSetup(): void {
  console.log(`e2e: Chromium at ${chromiumPath()}`);
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  execFileSync(npx, ['wxt', 'build'], { stdio: 'inherit' });
  execFileSync(npx, ['tsc', '-p', 'tsconfig.server.json'], { stdio: 'inherit' });
  execFileSync(npx, ['vite', 'build', '-c', 'vite.webapp.config.ts'], { stdio: 'inherit' });
}
