import type { Reporter, TestModule } from "vitest/node";

/**
 * Ends the run with one plain line, `vitest: N passed, N failed, N skipped`, after the default
 * reporter's summary: CI tooling that does not know vitest's coloured summary reads that line to
 * tell a run that executed tests from one that executed none.
 */
export default class ClosingLineReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") counts.passed += 1;
        else if (state === "failed") counts.failed += 1;
        else counts.skipped += 1;
      }
    }
    process.stdout.write(`\nvitest: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}
