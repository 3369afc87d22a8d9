import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

interface FaultResult {
  id: string;
  name: string;
  ok?: boolean;
  acknowledged?: number;
  lost?: number;
  skipped?: string;
  checks?: Array<[string, boolean]>;
}

const dir = mkdtempSync(join(tmpdir(), 'linklet-faults-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `scripts/faults.mjs` (the built server is there: the vitest global setup builds it). */
async function runFaults(): Promise<{ code: number | null; output: string; results: FaultResult[] }> {
  const json = join(dir, 'faults.json');
  const child = spawn(process.execPath, ['scripts/faults.mjs'], {
    env: { ...process.env, FAULTS_JSON: json },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const [code] = await once(child, 'exit');
  return { code, output, results: JSON.parse(readFileSync(json, 'utf8')) as FaultResult[] };
}

describe('the fault-injection script (scripts/faults.mjs)', () => {
  it('loses no acknowledged link under any fault, and every check holds', { timeout: 180_000 }, async () => {
    const { code, output, results } = await runFaults();
    process.stdout.write(output);
    expect(results.map((result) => result.id)).toEqual([
      'kill9',
      'sigterm',
      'locked',
      'diskfull',
      'rofile',
      'rodir',
      'slow',
    ]);
    for (const result of results) {
      expect(
        result.checks?.filter(([, passed]) => !passed),
        `${result.name}\n${output}`,
      ).toEqual([]);
      expect(result.lost, result.name).toBe(0);
      expect(result.acknowledged, result.name).toBeGreaterThan(0);
    }
    expect(code, output).toBe(0);
  });
});
