// postinstall: compiles better-sqlite3's native addon from source when no binary of its package
// loads here. better-sqlite3 13 ships prebuilt binaries inside the package (Linux with glibc or
// musl, macOS, Windows; x64 and arm64) and declares no install script (`"gypfile": false`), so on
// any other platform, or where its binary does not load, nothing else would build it and the
// server could not open SQLite. The addon uses Node-API: one build serves every line `engines` admits.
//
// node-gyp builds against the headers of `npm_config_nodedir` when set (the folder of a Node from
// the npm registry, scripts/registry-node.sh), else it fetches those of the running Node.
// `node scripts/build-sqlite-addon.mjs --force` compiles even when a binary loads.
import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/**
 * Why better-sqlite3 does not open a database on this Node, or undefined when it does. Asked of a
 * child process: a binary built for another Node can crash the process that loads it.
 */
function loadError() {
  const probe = "const Database = require('better-sqlite3'); new Database(':memory:').close();";
  try {
    execFileSync(process.execPath, ['-e', probe], { cwd: projectDir, stdio: ['ignore', 'ignore', 'pipe'] });
    return undefined;
  } catch (error) {
    const { status, signal, stderr } =
      /** @type {{ status: number | null, signal: string | null, stderr?: Buffer }} */ (error);
    const message = String(stderr ?? '').match(/^\w*Error: .*$/m)?.[0];
    return message ?? `loading it ${signal ? `crashed (${signal})` : `failed (exit ${status})`}`;
  }
}

/** npm's own node-gyp: npm names it to lifecycle scripts; run by hand, the one of the `npm` on PATH. */
function nodeGyp() {
  if (process.env.npm_config_node_gyp && existsSync(process.env.npm_config_node_gyp)) {
    return process.env.npm_config_node_gyp;
  }
  const npmCli =
    process.env.npm_execpath ??
    (process.env.PATH ?? '')
      .split(delimiter)
      .map((dir) => join(dir, 'npm'))
      .find((file) => existsSync(file));
  // npm's bin/npm-cli.js (or a link to it) sits two folders below npm's own node_modules.
  const bundled =
    npmCli && join(dirname(dirname(realpathSync(npmCli))), 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  if (bundled && existsSync(bundled)) return bundled;
  throw new Error(
    'better-sqlite3 needs compiling and no node-gyp was found: run `npm ci` again (npm gives its own to this script), or install node-gyp.',
  );
}

const projectDir = dirname(dirname(fileURLToPath(import.meta.url)));
let packageDir;
try {
  packageDir = dirname(require.resolve('better-sqlite3/package.json'));
} catch {
  console.log('better-sqlite3 is not installed: nothing to compile.');
  process.exit(0);
}
const force = process.argv.includes('--force');
const before = force ? 'compiling as asked (--force)' : loadError();
if (before === undefined) process.exit(0);

const { version } = require('better-sqlite3/package.json');
console.log(
  `Compiling better-sqlite3 ${version} (SQLite) from source for Node.js ${process.version}: ${before}. ` +
    'This needs python3, make and a C++ compiler, and takes a few minutes.',
);
execFileSync(process.execPath, [nodeGyp(), 'rebuild', '--release', '--force_build=1', `--directory=${packageDir}`], {
  stdio: 'inherit',
  env: { ...process.env, npm_config_loglevel: process.env.npm_config_loglevel ?? 'warn' },
});
const after = loadError();
if (after !== undefined) {
  console.error(`better-sqlite3 was compiled but still does not load: ${after}`);
  process.exit(1);
}
