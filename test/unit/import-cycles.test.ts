import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// A module that imports itself round a circle runs only while every value is read at call time:
// one read at module top level meets the temporal dead zone. These folders keep none.
const root = join(import.meta.dirname, '../..');
const ACYCLIC_FOLDERS = ['core', 'extension', 'client', 'ui', 'webapp', 'server'];

/**
 * The value imports of every `.ts` file under `folders`, by path from the repository root. Type-only
 * imports are left out (they vanish when compiled, so they cannot close a circle at run time).
 */
function importGraph(folders: readonly string[], withTypes = false): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const folder of folders) {
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      const path = join(entry.parentPath, entry.name);
      graph.set(
        relative(root, path),
        (withTypes ? allImportsOf : valueImportsOf)(readFileSync(path, 'utf8')).map((to) => fromRoot(path, to)),
      );
    }
  }
  return graph;
}

function valueImportsOf(text: string): string[] {
  const found: string[] = [];
  for (const [, clause, specifier] of text.matchAll(
    /(?:^|\n)\s*(?:import|export)\s+([^'";]*?)\s*from\s*['"]([^'"]+)['"]/g,
  )) {
    if (/^type\s/.test(clause ?? '')) continue;
    const names = /\{([^}]*)\}/.exec(clause ?? '')?.[1];
    const onlyTypes = names !== undefined && !/[^{,\s]/.test(clause?.replace(/\{[^}]*\}/, '') ?? '');
    if (onlyTypes && names.split(',').every((name) => name.trim() === '' || /^type\s/.test(name.trim()))) continue;
    found.push(specifier as string);
  }
  for (const [, specifier] of text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) found.push(specifier as string);
  for (const [, specifier] of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(specifier as string);
  return found.filter((specifier) => specifier.startsWith('.'));
}

/** Every relative import and re-export, type-only ones too (what a reader follows round a circle). */
function allImportsOf(text: string): string[] {
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s*['"](\.[^'"]+)['"]/g)].map(
    ([, specifier]) => specifier as string,
  );
}

function fromRoot(file: string, specifier: string): string {
  return relative(root, join(dirname(file), specifier)).replace(/\.js$/, '.ts');
}

/** The strongly connected components with more than one module, or one that imports itself (Tarjan). */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.includes(node)) cycles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

describe('import cycles', () => {
  it('finds a circle, and only a circle (a guard on the search)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', ['e.ts']],
      ['e.ts', []],
      ['f.ts', ['f.ts']],
    ]);
    expect(cyclesOf(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['f.ts']]);
  });

  it('reads value imports and leaves type-only ones out (a guard on the scan)', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "import { type C, type D } from './c.js';",
      "import { type E, e } from './e.js';",
      "export { f } from './f.js';",
      "import g, { type G } from './g.js';",
      "import { browser } from 'wxt/browser';",
    ].join('\n');
    expect(valueImportsOf(text)).toEqual(['./a.js', './e.js', './f.js', './g.js']);
    const graph = importGraph(['extension']);
    expect(graph.get('extension/server/shorten-via.ts')).toContain('client/call-linklet.ts');
  });

  it.each(ACYCLIC_FOLDERS)('%s/ has no import cycle', (folder) => {
    expect(cyclesOf(importGraph([folder]))).toEqual([]);
  });

  it('extension/ has none with type-only imports counted too (types shared both ways live below both)', () => {
    expect(allImportsOf("import type { B } from './b.js';\nexport type { C } from './c.js';")).toEqual([
      './b.js',
      './c.js',
    ]);
    expect(cyclesOf(importGraph(['extension'], true))).toEqual([]);
  });

  it('the browser modules have none across their folders either', () => {
    expect(cyclesOf(importGraph(ACYCLIC_FOLDERS))).toEqual([]);
  });
});
