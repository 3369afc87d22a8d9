import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RELEASE_REGISTRY_NODE, releaseNode, runsReleases, sqliteMajorOf } from '../../scripts/release-node.mjs';

// Which Node.js lines may install Linklet (SPEC "Updates and backups": the newest release of
// every LTS line people use, none capped below its newest patch), checked with npm's own semver.
const root = join(import.meta.dirname, '../..');
const { satisfies } = createRequire(join(root, 'package.json'))('semver') as {
  satisfies(version: string, range: string): boolean;
};
const engines: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;

describe('package.json engines', () => {
  it('admits the newest release of each LTS line, and the ones after it', () => {
    for (const version of ['22.23.5', '24.22.3', '26.12.1', '22.99.0', '24.99.0', '26.99.0']) {
      expect(satisfies(version, engines), `Node.js ${version} in ${engines}`).toBe(true);
    }
  });

  it('refuses Node.js 20 (past its end of life) and a 22 without Node-API 10 (better-sqlite3 13)', () => {
    for (const version of ['20.19.0', '20.20.2', '22.13.1', '18.20.8']) {
      expect(satisfies(version, engines), `Node.js ${version} in ${engines}`).toBe(false);
    }
  });

  it('is enforced: `npm ci` on a Node it refuses stops before fetching anything', () => {
    const npmrc = readFileSync(join(root, '.npmrc'), 'utf8');
    expect(npmrc.split('\n').map((line) => line.trim())).toContain('engine-strict=true');
  });
});

describe('the Node.js of the earlier releases (scripts/release-node.mjs)', () => {
  it('is one their better-sqlite3 12 runs on: 20.19+, 22.13+, 24 before 24.19', () => {
    expect(['v20.20.2', 'v22.23.5', 'v24.18.1', RELEASE_REGISTRY_NODE].map(runsReleases)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['v20.18.0', 'v22.12.0', 'v24.19.0', 'v24.22.3', 'v26.12.1'].map(runsReleases)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('is chosen by the release: better-sqlite3 12 before 0.2.0, the Node running the tests from 0.2.0 on', () => {
    expect(['aaedf42', '3289986', '7784d06', '5711d13', '5607bd0'].map(sqliteMajorOf)).toEqual([12, 12, 12, 12, 13]);
    expect(releaseNode('5607bd0')).toBe(process.execPath);
  });
});
