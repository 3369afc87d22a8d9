import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// biome.json's noRestrictedImports keeps the boundary for TypeScript; this covers what Biome does
// not read: a stylesheet's @import and a page's <link>/<script>. The web app must not reach into
// the extension, and ui/ and client/ (shared by both) into either.
const root = join(import.meta.dirname, '../..');

const FORBIDDEN: Record<string, string[]> = {
  webapp: ['extension', 'entrypoints'],
  ui: ['extension', 'entrypoints', 'webapp'],
  client: ['extension', 'entrypoints', 'webapp'],
};

/** Every file of `folder` with what it imports, as paths from the repository root or bare names. */
function importsIn(folder: string): Array<{ file: string; target: string }> {
  const found: Array<{ file: string; target: string }> = [];
  for (const entry of readdirSync(join(root, folder), { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.(ts|css|html)$/.test(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    const text = readFileSync(path, 'utf8');
    const specifiers = [
      ...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g),
      ...text.matchAll(/@import\s+(?:url\()?['"]([^'"]+)['"]/g),
      ...text.matchAll(/\b(?:href|src)="([^"#:]+)"/g),
    ].map((match) => match[1] as string);
    for (const specifier of specifiers) {
      const target = specifier.startsWith('.') ? relative(root, join(dirname(path), specifier)) : specifier;
      found.push({ file: relative(root, path), target });
    }
  }
  return found;
}

describe('import boundaries of the browser modules', () => {
  it('finds the imports it checks (a guard on the scan)', () => {
    const targets = importsIn('webapp').map((use) => use.target);
    expect(targets).toContain('ui/theme.css');
    expect(targets).toContain('ui/dom.js');
  });

  it.each(Object.entries(FORBIDDEN))('%s/ imports none of %s', (folder, forbidden) => {
    const crossing = importsIn(folder).filter(
      ({ target }) => forbidden.some((other) => target.startsWith(`${other}/`)) || /^wxt(\/|$)/.test(target),
    );
    expect(crossing).toEqual([]);
  });
});
