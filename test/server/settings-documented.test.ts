import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTING_NAMES } from '../../server/process/config.js';

// An operator learns the settings from docs/operations.md, not from config.ts: a setting added
// to the schema without a row there (ACCESS_LOG once was) fails here.
const root = join(import.meta.dirname, '../..');
const operations = readFileSync(join(root, 'docs/operations.md'), 'utf8');

/** The variables named in the first column of the table under "## Settings". */
function documentedSettings(markdown: string): string[] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith('Settings\n'));
  if (section === undefined) throw new Error('docs/operations.md has no "## Settings" section');
  return [...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)`/gm)].map((match) => match[1] as string);
}

describe('docs/operations.md, "Settings"', () => {
  const documented = documentedSettings(operations);

  it('reads the table (a guard on the parser: it must find the first and last rows)', () => {
    expect(documented).toContain('PORT');
    expect(documented).toContain('TRUSTED_PROXIES');
  });

  it('has a row for every variable the server reads', () => {
    expect(SETTING_NAMES.length).toBeGreaterThan(15);
    expect(SETTING_NAMES.filter((name) => !documented.includes(name))).toEqual([]);
  });

  it('has no row for a variable the server does not read, and none twice', () => {
    expect(documented.filter((name) => !SETTING_NAMES.includes(name))).toEqual([]);
    expect(documented.filter((name, i) => documented.indexOf(name) !== i)).toEqual([]);
  });
});
