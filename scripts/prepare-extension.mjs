// postinstall: WXT writes the extension's generated types and config (.wxt/) that its build and
// type check read. A server-only install (`npm ci --omit=dev`) has no WXT and needs none of it.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const wxt = fileURLToPath(new URL('../node_modules/wxt/bin/wxt.mjs', import.meta.url));
if (existsSync(wxt)) {
  execFileSync(process.execPath, [wxt, 'prepare'], { stdio: 'inherit' });
} else {
  console.log('WXT is not installed (a server-only install): skipping `wxt prepare`.');
}
