import type { Reporter, TestModule, Vitest } from 'vitest/node';

/**
 * Ends the run with one plain `N passed, N failed, N skipped` line that CI reads, and fails the
 * run if any test was skipped or left as todo: a skipped test hides a gap instead of showing it.
 */
export default class SummaryReporter implements Reporter {
  private filtered = false;

  onInit(vitest: Vitest): void {
    // `vitest -t name` skips the tests it filters out; only a full run must have none skipped.
    this.filtered = vitest.config.testNamePattern !== undefined;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0, pending: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) counts[test.result().state] += 1;
    }
    const skipped = counts.skipped + counts.pending;
    process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${skipped} skipped\n`);
    if (skipped > 0 && !this.filtered) {
      process.stdout.write('Skipped or todo tests are not allowed; make them run or remove them.\n');
      process.exitCode = 1;
    }
  }
}
