import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/**
 * The Playwright side of test/summary-reporter.ts: ends with one plain
 * `N passed, N failed, N skipped` line and fails the run if any test was skipped, since a skipped
 * test hides a gap instead of showing it.
 */
export default class SummaryReporter implements Reporter {
  private readonly counts = { passed: 0, failed: 0, skipped: 0 };

  onTestEnd(test: TestCase, result: TestResult): void {
    // Retries are off, so each test ends once; 'timedOut' and 'interrupted' are failures.
    if (result.status === 'skipped') this.counts.skipped++;
    else if (test.outcome() === 'expected') this.counts.passed++;
    else this.counts.failed++;
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] } | undefined> {
    const { passed, failed, skipped } = this.counts;
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
    if (skipped > 0 && result.status === 'passed') {
      process.stdout.write('Skipped tests are not allowed; make them run or remove them.\n');
      return { status: 'failed' };
    }
    return undefined;
  }
}
