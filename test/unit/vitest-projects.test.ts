import { join } from 'node:path';
import { globSync } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { configDefaults } from 'vitest/config';
import config from '../../vitest.config.js';
import containerConfig from '../../vitest.container.config.js';

// Which loop runs a test is decided by its folder and name (vitest.config.ts). These checks keep
// that rule honest: a pure test must not fall out of `npm run test:quick`, none may run twice or
// never. tinyglobby is the matcher vitest itself uses.
const root = join(import.meta.dirname, '../..');

interface Project {
  test: { name: string; include: string[]; exclude?: string[] };
}
const projects = (config.test?.projects ?? []) as Project[];

function filesOf(name: string): string[] {
  const project = projects.find((candidate) => candidate.test.name === name);
  if (!project) throw new Error(`no vitest project named ${name}`);
  return globSync(project.test.include, { cwd: root, ignore: project.test.exclude ?? configDefaults.exclude });
}

const unit = filesOf('unit');
const node = filesOf('node');
const extension = filesOf('extension');
// Opt-in, on its own (`npm run test:container`): never in `npm test`.
const container = globSync(containerConfig.test?.include ?? [], { cwd: root });

describe('vitest projects', () => {
  it('put the pure server tests in the quick loop, whatever their folder', () => {
    expect(unit).toContain('test/server/config.test.ts');
    expect(unit).toContain('test/server/compact-link-table.test.ts');
    expect(unit).toContain('test/unit/vitest-projects.test.ts');
  });

  it('leave tests that start a process or need PostgreSQL to the node project', () => {
    expect(node).toContain('test/server/server.process.test.ts');
    expect(node).toContain('test/contract/postgres-link-store.test.ts');
    expect(node).toContain('test/races/races.test.ts');
    expect(unit.filter((file) => file.includes('.process.') || file.includes('/postgres-'))).toEqual([]);
  });

  it('leave the container image test to its own run', () => {
    expect(container).toEqual(['test/container/image.test.ts']);
  });

  it('run every vitest file in exactly one project', () => {
    const all = globSync(['test/**/*.test.ts'], { cwd: root, ignore: ['**/node_modules/**'] });
    const assigned = [...unit, ...node, ...extension, ...container];
    expect(all.length).toBeGreaterThan(50);
    expect(all.filter((file) => !assigned.includes(file))).toEqual([]);
    expect(assigned.filter((file, i) => assigned.indexOf(file) !== i)).toEqual([]);
  });
});
