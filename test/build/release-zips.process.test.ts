import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// `npm run zip` as a release is cut (docs/releasing.md): the Chrome package, the Firefox package
// and the sources archive addons.mozilla.org asks for, each named with package.json's version.
// Zip files are read with Info-ZIP's `unzip`, as a reviewer would.

const run = promisify(execFile);
const OUTPUT = resolve('.output');
const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const zipOf = (kind: 'chrome' | 'firefox' | 'sources') => join(OUTPUT, `linklet-${version}-${kind}.zip`);

const entriesOf = async (zip: string) =>
  (await run('unzip', ['-Z1', zip], { maxBuffer: 16 << 20 })).stdout.split('\n').filter(Boolean);
const fileIn = async (zip: string, entry: string) =>
  (await run('unzip', ['-p', zip, entry], { maxBuffer: 16 << 20, encoding: 'buffer' })).stdout;

const scratch = mkdtempSync(join(tmpdir(), 'linklet-zips-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('npm run zip', () => {
  it('writes the Chrome and Firefox packages and the sources, named with the version, each manifest carrying it', {
    timeout: 240_000,
  }, async () => {
    for (const kind of ['chrome', 'firefox', 'sources'] as const) rmSync(zipOf(kind), { force: true });
    await run('npm', ['run', 'zip'], { env: { ...process.env, CI: 'true' }, maxBuffer: 16 << 20 });

    for (const [kind, manifestVersion] of [
      ['chrome', 3],
      ['firefox', 2],
    ] as const) {
      expect(existsSync(zipOf(kind)), zipOf(kind)).toBe(true);
      const manifest = JSON.parse((await fileIn(zipOf(kind), 'manifest.json')).toString('utf8'));
      expect({ kind, version: manifest.version, manifest_version: manifest.manifest_version }).toEqual({
        kind,
        version,
        manifest_version: manifestVersion,
      });
    }

    const sources = await entriesOf(zipOf('sources'));
    for (const file of [
      'package.json',
      'package-lock.json',
      'wxt.config.ts',
      'tsconfig.json',
      'docs/releasing.md',
      'entrypoints/background/index.ts',
      'entrypoints/popup/index.html',
      'extension/build-id.ts',
      'core/handler.ts',
      'public/_locales/en/messages.json',
    ]) {
      expect(sources, file).toContain(file);
    }
    for (const folder of ['client/', 'ui/'])
      expect(
        sources.some((entry) => entry.startsWith(folder)),
        folder,
      ).toBe(true);
    // Nothing installed or built, and no part the extension's build does not read.
    const stray = sources.filter(
      (entry) => /(^|\/)node_modules\//.test(entry) || /^(\.output|\.wxt|dist|test|server|webapp)\//.test(entry),
    );
    expect(stray).toEqual([]);
    const { version: sourcesVersion } = JSON.parse((await fileIn(zipOf('sources'), 'package.json')).toString('utf8'));
    expect(sourcesVersion).toBe(version);
  });

  it("rebuilds, from the sources archive alone (this clone's node_modules lent), the very Firefox package", {
    timeout: 240_000,
  }, async () => {
    const firefox = zipOf('firefox');
    expect(existsSync(firefox), 'the first test wrote it').toBe(true);
    const dir = join(scratch, 'sources');
    await run('unzip', ['-q', zipOf('sources'), '-d', dir]);
    symlinkSync(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
    const wxt = join(dir, 'node_modules', 'wxt', 'bin', 'wxt.mjs');
    await run(process.execPath, [wxt, 'prepare'], { cwd: dir, env: { ...process.env, CI: 'true' } });
    await run(process.execPath, [wxt, 'zip', '-b', 'firefox'], { cwd: dir, env: { ...process.env, CI: 'true' } });

    const rebuilt = join(dir, '.output', `linklet-${version}-firefox.zip`);
    const sent = await entriesOf(firefox);
    expect((await entriesOf(rebuilt)).sort()).toEqual([...sent].sort());
    for (const entry of sent.filter((name) => !name.endsWith('/'))) {
      expect((await fileIn(rebuilt, entry)).equals(await fileIn(firefox, entry)), entry).toBe(true);
    }
  });
});
