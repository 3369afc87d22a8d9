// Builds an earlier release of the server from this repository's own history, once per machine,
// into a cache outside the clone, so the update tests can run the server people ran before.
// Plain JS so it runs from a shell (`node scripts/release-build.mjs COMMIT`) and from the tests.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withoutNpmConfig } from './npm-environment.mjs';
import { withLock } from './release-lock.mjs';
import { headersDirOf, releaseNode } from './release-node.mjs';

export { releaseNode };

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const READY_MARKER = '.linklet-release-ready';
const ADDON = join('build', 'Release', 'better_sqlite3.node');

/** Where releases are cached: `LINKLET_RELEASES_CACHE`, else `~/.cache/linklet-releases`. */
export function releasesCacheDir() {
  return process.env.LINKLET_RELEASES_CACHE ?? join(homedir(), '.cache', 'linklet-releases');
}

/** @param {string} node */
const abiOf = (node) =>
  node === process.execPath
    ? process.versions.modules
    : execFileSync(node, ['-p', 'process.versions.modules'], { encoding: 'utf8' }).trim();

/**
 * The full commit id of `commit` in the repository the tests run from (`LINKLET_REPO`, else this
 * checkout). A shallow clone lacks the old releases: the error says how to fetch them.
 * @param {string} commit
 */
export function resolveCommit(commit) {
  const repo = process.env.LINKLET_REPO ?? PROJECT_ROOT;
  try {
    return execFileSync('git', ['-C', repo, 'rev-parse', '--verify', '--quiet', `${commit}^{commit}`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    throw new Error(
      `Commit ${commit} is not in the repository at ${repo}; the update tests build earlier releases from ` +
        'its history. In a shallow clone run `git fetch --unshallow`; elsewhere set LINKLET_REPO to a full clone.',
    );
  }
}

/**
 * The built release at `commit`: its folder (with `dist/server/main.js` and its own node_modules),
 * built now unless a finished build is cached. Two test files asking for the same release at once
 * build it once: the second waits on the first's lock. Native addons are per Node ABI, so each
 * ABI of `releaseNode(commit)` gets its own build.
 * @param {string} commit
 * @returns {Promise<string>}
 */
export async function ensureRelease(commit) {
  const id = resolveCommit(commit);
  const node = releaseNode(id);
  const abi = abiOf(node);
  const dir = join(releasesCacheDir(), `${id}-abi${abi}`);
  if (existsSync(join(dir, READY_MARKER))) return dir;
  mkdirSync(releasesCacheDir(), { recursive: true });
  await withLock(`${dir}.lock`, () => {
    if (!existsSync(join(dir, READY_MARKER))) buildRelease(id, dir, abi, node);
  });
  return dir;
}

/**
 * @param {string} id
 * @param {string} dir
 * @param {string} abi
 * @param {string} node
 */
function buildRelease(id, dir, abi, node) {
  const repo = process.env.LINKLET_REPO ?? PROJECT_ROOT;
  // A build that died half-way leaves no marker: start it again from nothing.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // npm and node-gyp build for the `node` first on PATH, the one the release will run on, against
  // its own headers (a Node from the npm registry has them in its folder).
  const headers = headersDirOf(node);
  const env = {
    // Today's npm settings must not govern the release's install (engine-strict, a wrong globalconfig).
    ...withoutNpmConfig(process.env),
    PATH: `${dirname(node)}:${process.env.PATH ?? ''}`,
    ...(headers === undefined ? {} : { npm_config_nodedir: headers }),
  };
  const run = (command, args) => execFileSync(command, args, { cwd: dir, env, stdio: ['ignore', 'ignore', 'inherit'] });
  run('sh', ['-c', 'git -C "$0" archive --format=tar "$1" | tar -x -f - -C "$2"', repo, id, dir]);
  // Only the server is run: no lifecycle scripts (the extension's prepare step, browser downloads).
  run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error']);
  provideSqliteAddon(dir, abi, run);
  run('npm', ['run', '--silent', 'build:server']);
  writeFileSync(join(dir, READY_MARKER), `${new Date().toISOString()}\n`);
}

/**
 * `--ignore-scripts` left better-sqlite3 unbuilt. When the release pins the very version this
 * project has built for this Node, its addon is the same file: copying it saves a compile of
 * SQLite (a minute or two on a small machine). Otherwise compile it for the release's Node.
 * @param {string} dir
 * @param {string} abi
 * @param {(command: string, args: string[]) => void} run
 */
function provideSqliteAddon(dir, abi, run) {
  const releasePackage = join(dir, 'node_modules', 'better-sqlite3');
  const releaseVersion = JSON.parse(readFileSync(join(releasePackage, 'package.json'), 'utf8')).version;
  const ownPackage = dirname(createRequire(join(PROJECT_ROOT, 'package.json')).resolve('better-sqlite3/package.json'));
  const ownVersion = JSON.parse(readFileSync(join(ownPackage, 'package.json'), 'utf8')).version;
  if (releaseVersion === ownVersion && abi === process.versions.modules && existsSync(join(ownPackage, ADDON))) {
    mkdirSync(dirname(join(releasePackage, ADDON)), { recursive: true });
    copyFileSync(join(ownPackage, ADDON), join(releasePackage, ADDON));
    return;
  }
  run('npm', ['rebuild', 'better-sqlite3']);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const commits = process.argv.slice(2);
  if (commits.length === 0) {
    process.stderr.write('Usage: node scripts/release-build.mjs COMMIT...  (builds each into the release cache)\n');
    process.exit(2);
  }
  for (const commit of commits) process.stdout.write(`${await ensureRelease(commit)}\n`);
}
