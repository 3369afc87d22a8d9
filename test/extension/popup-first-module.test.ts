import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The popup shows the tab's URL from its first module: everything that module imports statically
// is fetched and run before the URL can show. The rest (settings, the background's client, the
// history, tags, QR code) comes by dynamic import, once the URL is in the field.
const root = join(import.meta.dirname, '../..');
const ENTRY = 'entrypoints/popup/main.ts';

/** What may run before the URL shows: the page's words and the tab's URL, nothing else of ours. */
const FIRST_MODULE = ['entrypoints/popup/main.ts', 'entrypoints/popup/tab-url.ts', 'extension/i18n.ts', 'ui/i18n.ts'];

/** The relative imports of a file that run with it: no `import type`, no `import()`. */
function staticImportsOf(text: string): string[] {
  const clauses = text.matchAll(/(?:^|\n)\s*(?:import|export)\s+(?!type\s)[^'";]*?\s*from\s*['"](\.[^'"]+)['"]/g);
  const bare = text.matchAll(/(?:^|\n)\s*import\s*['"](\.[^'"]+)['"]/g);
  return [...clauses, ...bare].map(([, specifier]) => specifier as string);
}

/** Every module of ours that `file` pulls in statically, by path from the repository root. */
function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file) || !file.endsWith('.ts')) return seen;
  seen.add(file);
  for (const specifier of staticImportsOf(readFileSync(join(root, file), 'utf8'))) {
    staticClosure(relative(root, join(root, dirname(file), specifier)).replace(/\.js$/, '.ts'), seen);
  }
  return seen;
}

describe('the popup first module', () => {
  it('imports only what shows the page in its language and the tab URL', () => {
    expect([...staticClosure(ENTRY)].sort()).toEqual([...FIRST_MODULE].sort());
  });

  it('loads the rest of the popup once the URL shows', () => {
    const entry = readFileSync(join(root, ENTRY), 'utf8');
    const shown = entry.indexOf('await showTabUrl(');
    const rest = entry.indexOf("await import('./popup-app.js')");
    expect(shown).toBeGreaterThan(-1);
    expect(rest).toBeGreaterThan(shown);
  });
});
