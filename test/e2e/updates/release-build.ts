import { execFileSync, execSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where each release's build is kept between runs: outside the clone, so tests never write into it. */
export const RELEASES_DIR = process.env.LINKLET_RELEASES_DIR ?? join(homedir(), '.cache', 'linklet-releases');

/** Written last, so a folder without it is a build that stopped halfway and is made again. */
const MARKER = '.linklet-release-built';

/**
 * The Chromium build (`.output/chrome-mv3`) of an earlier release, made once per machine: the
 * commit's files (`git archive`, so this clone needs that commit), its own `npm ci` and `wxt
 * build`. A cold machine spends a few minutes per release; a warm one finds the marker and skips.
 */
export function releaseBuild(commit: string): string {
  const dir = join(RELEASES_DIR, commit);
  const output = join(dir, '.output', 'chrome-mv3');
  if (existsSync(join(dir, MARKER)) && existsSync(join(output, 'manifest.json'))) return output;
  mkdirSync(RELEASES_DIR, { recursive: true });
  // Built beside its place and moved there at the end, so a run that stops leaves no half build.
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building);
  try {
    execSync(`git archive --format=tar ${commit} | tar -x -C ${JSON.stringify(building)}`, { stdio: 'inherit' });
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
    execFileSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: building, stdio: 'inherit' });
    execFileSync(npx, ['wxt', 'build'], { cwd: building, stdio: 'inherit' });
    writeFileSync(join(building, MARKER), `${new Date().toISOString()}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(building, dir);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    throw new Error(`Could not build release ${commit} (a shallow clone lacks it: fetch the history).`, {
      cause: error,
    });
  }
  return output;
}
