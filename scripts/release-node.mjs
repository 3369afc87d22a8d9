// Which Node.js builds and runs the earlier releases of the update tests. Those releases pin
// better-sqlite3 12, whose addon is built for one Node ABI and aborts at teardown on Node 24.19 and
// later (WiseLibs/better-sqlite3#1515); today's code needs Node 22.14+ (better-sqlite3 13). So when
// the tests run on a Node the releases cannot use, the releases get one they can, as an operator
// ran them before updating Linklet and Node together.
import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Node.js taken from the npm registry for the releases when no Node at hand runs them. */
export const RELEASE_REGISTRY_NODE = '24.18.1';

const REGISTRY_NODE_SCRIPT = resolve(dirname(fileURLToPath(import.meta.url)), 'registry-node.sh');

/**
 * Whether every release on better-sqlite3 12 (before 0.2.0) runs on Node `version` (`v20.20.2`): what their `engines` admit,
 * `^20.19.0 || ^22.13.0 || >=24.0.0 <24.19.0`, as the lines they were tested on.
 * @param {string} version
 */
export function runsReleases(version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  return (major === 20 && minor >= 19) || (major === 22 && minor >= 13) || (major === 24 && minor < 19);
}

/** @param {string} node */
const versionOf = (node) => {
  try {
    return execFileSync(node, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
};

/** @type {string | undefined} */
let chosen;

/**
 * The major version of better-sqlite3 a release at `commit` pins, read from its package.json in
 * the repository the tests run from (`LINKLET_REPO`, else this checkout).
 * @param {string} commit
 * @returns {number}
 */
export function sqliteMajorOf(commit) {
  const repo = process.env.LINKLET_REPO ?? resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const manifest = JSON.parse(
    execFileSync('git', ['-C', repo, 'show', `${commit}:package.json`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  const range = manifest.dependencies?.['better-sqlite3'] ?? manifest.devDependencies?.['better-sqlite3'] ?? '';
  return Number(/\d+/.exec(range)?.[0] ?? 0);
}

/**
 * The Node.js binary that builds and runs the release at `commit`. A release on better-sqlite3 13
 * or later (0.2.0 on: one Node-API addon for 22, 24 and 26, the lines its `engines` admit) runs on
 * the Node running the tests, as an operator updates Linklet without changing Node. An earlier
 * one (better-sqlite3 12) runs on `LINKLET_RELEASE_NODE`; else the Node running this when it can;
 * else the first `node` on PATH it runs on (this machine's own, behind a newer one put first);
 * else Node.js 24.18.1 from the npm registry.
 * @param {string} commit
 * @returns {string}
 */
export function releaseNode(commit) {
  return sqliteMajorOf(commit) >= 13 ? process.execPath : sqlite12ReleaseNode();
}

/**
 * The Node.js binary for the releases on better-sqlite3 12 (see `releaseNode`).
 * @returns {string}
 */
export function sqlite12ReleaseNode() {
  if (process.env.LINKLET_RELEASE_NODE) return process.env.LINKLET_RELEASE_NODE;
  if (runsReleases(process.version)) return process.execPath;
  if (chosen !== undefined) return chosen;
  const self = realpathSync(process.execPath);
  const onPath = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '')
    .map((dir) => join(dir, 'node'))
    .filter((node) => existsSync(node) && realpathSync(node) !== self)
    .find((node) => runsReleases(versionOf(node)));
  chosen =
    onPath ??
    join(
      execFileSync('bash', [REGISTRY_NODE_SCRIPT, RELEASE_REGISTRY_NODE], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      }).trim(),
      'bin',
      'node',
    );
  return chosen;
}

/**
 * The folder whose `include/node` holds the headers of `node` (for npm_config_nodedir, so node-gyp
 * compiles a release's addon against the Node that runs it and downloads nothing), when it has them.
 * @param {string} node
 * @returns {string | undefined}
 */
export function headersDirOf(node) {
  const dir = dirname(dirname(realpathSync(node)));
  return existsSync(join(dir, 'include', 'node', 'common.gypi')) ? dir : undefined;
}
