import { execFileSync } from 'node:child_process';

/** `git status --porcelain` as a set of lines, or undefined outside a git checkout. */
function workingTreeStatus(): Set<string> | undefined {
  try {
    const output = execFileSync('git', ['status', '--porcelain'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return new Set(output.split('\n').filter(Boolean));
  } catch {
    return undefined;
  }
}

/**
 * Global setup for Vitest and Playwright (both call the function it returns as teardown): reports
 * a run whose tests changed a tracked file or left a file git does not ignore, and fails it under
 * CI (`CI` set; `.ci/run` also checks the clone is clean after `npm test`). Tests write into
 * temporary folders or ignored ones (`dist/`, `.output/`, `test-results/`); a test that rewrites
 * something in the repository (as the README's screenshot once did) leaves a dirty tree after
 * `npm test` on a clean clone and commits noise. Only changes that appeared during the run count;
 * outside CI it only warns, since edits or a merge made while the tests run look the same.
 */
export default function guardTrackedFiles(): () => void {
  const before = workingTreeStatus();
  return () => {
    if (before === undefined) return;
    const appeared = [...(workingTreeStatus() ?? [])].filter((line) => !before.has(line));
    if (appeared.length === 0) return;
    const message =
      `The test run changed the working tree:\n${appeared.join('\n')}\n` +
      'Tests write into a temporary folder or one listed in .gitignore (e.g. test-results/). ' +
      '(If you changed these files yourself while the tests ran, ignore this.)';
    if (!process.env.CI) {
      process.stderr.write(`\nWarning: ${message}\n`);
      return;
    }
    // Vitest reports an error thrown at teardown but would still exit 0; Playwright fails on it.
    process.exitCode = 1;
    throw new Error(message);
  };
}
