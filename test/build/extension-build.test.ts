import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The store packages: `wxt zip` for Chromium and a Firefox (MV2) build, as a user would make them.
// Firefox cannot run here, so its build is checked for what Firefox needs to load it.

const run = promisify(execFile);
const OUTPUT = '.output';

function zipNamed(suffix: string): Buffer {
  const name = readdirSync(OUTPUT).find((file) => file.endsWith(suffix));
  expect(name, `no ${suffix} in ${OUTPUT}`).toBeDefined();
  return readFileSync(join(OUTPUT, name as string));
}

describe('extension packages', () => {
  it('zips the Chromium build with its manifest, locales and icons', { timeout: 120_000 }, async () => {
    await run('npx', ['wxt', 'zip'], { env: { ...process.env, CI: 'true' } });
    const zip = zipNamed('-chrome.zip');
    // Zip entries carry their names in clear text.
    for (const entry of [
      'manifest.json',
      'background.js',
      'popup.html',
      'options.html',
      'open.html',
      'offscreen.html',
    ]) {
      expect(zip.includes(entry), entry).toBe(true);
    }
    for (const entry of ['_locales/en/messages.json', '_locales/ko/messages.json', 'icon/128.png']) {
      expect(zip.includes(entry), entry).toBe(true);
    }
  });

  it('builds for Firefox: MV2 background page, no offscreen, a gecko id, both locales', {
    timeout: 120_000,
  }, async () => {
    await run('npx', ['wxt', 'zip', '-b', 'firefox'], { env: { ...process.env, CI: 'true' } });
    const dir = join(OUTPUT, 'firefox-mv2');
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    expect(manifest.manifest_version).toBe(2);
    expect(manifest.background.scripts).toEqual(['background.js']);
    expect(manifest.permissions).not.toContain('offscreen');
    expect(manifest.browser_specific_settings.gecko.id).toMatch(/@/);
    expect(manifest.browser_action.default_popup).toBe('popup.html');
    expect(existsSync(join(dir, 'offscreen.html'))).toBe(false);
    for (const file of ['_locales/en/messages.json', '_locales/ko/messages.json', 'icon/16.png', 'open.html']) {
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
    expect(zipNamed('-firefox.zip').includes('manifest.json')).toBe(true);
  });
});
