import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureRelease } from '../../../scripts/release-build.mjs';
import { withLock } from '../../../scripts/release-lock.mjs';

/** Written last, so a release folder without it has no finished extension build and makes one. */
const MARKER = '.linklet-extension-built';

/**
 * The Chromium build (`.output/chrome-mv3`) of an earlier release, made once per machine. It
 * shares the server update tests' release folder (scripts/release-build.mjs: the commit's files
 * and its own `npm ci`), so a cold machine installs each release once and only adds `wxt build`.
 */
export async function releaseBuild(commit: string): Promise<string> {
  const dir = await ensureRelease(commit);
  const output = join(dir, '.output', 'chrome-mv3');
  const built = () => existsSync(join(dir, MARKER)) && existsSync(join(output, 'manifest.json'));
  if (built()) return output;
  await withLock(`${dir}.extension.lock`, () => {
    if (built()) return;
    // The release was installed without lifecycle scripts; `wxt build` writes its own .wxt/.
    execFileSync(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['wxt', 'build'], { cwd: dir, stdio: 'inherit' });
    writeFileSync(join(dir, MARKER), `${new Date().toISOString()}\n`);
  });
  return output;
}
