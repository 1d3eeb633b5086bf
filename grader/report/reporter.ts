// A vitest reporter that collects each check's verdict from its test's `meta`, and tells a
// listener (the live progress) each check's start, crash states so far, and verdict as they come.
import type { Reporter, TestCase, TestModule } from "vitest/node";
import type { TestAnnotation } from "vitest";
import type { CheckMeta } from "../contract/verdict.js";
import type { MeasurementMeta } from "../contract/measurement.js";
import { CRASH_STATES_ANNOTATION } from "../contract/crash-count.js";

/** What a grade's checks do while they run; each check is its test, named by the check's id. */
export interface CheckEvents {
  started(checkId: string): void;
  crashStates(checkId: string, count: number): void;
  decided(meta: CheckMeta): void;
}

export class VerdictCollector implements Reporter {
  readonly verdicts: CheckMeta[] = [];
  /** What deliverables measured without scoring it. */
  readonly measurements: MeasurementMeta[] = [];
  /** Errors outside any check (a check file that failed to load): the grade could not run. */
  readonly errors: string[] = [];

  constructor(private readonly events?: CheckEvents) {}

  onTestCaseReady(test: TestCase): void {
    this.events?.started(test.name);
  }

  onTestCaseAnnotate(test: TestCase, annotation: TestAnnotation): void {
    if (annotation.type === CRASH_STATES_ANNOTATION) this.events?.crashStates(test.name, Number(annotation.message));
  }

  onTestCaseResult(test: TestCase): void {
    const { check } = test.meta();
    if (check) this.events?.decided(check);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    for (const module of testModules) {
      // A disagreement of the manifest and the code is told in their terms; any other error with its stack.
      for (const error of module.errors()) this.errors.push(error.name === "ManifestError" ? error.message : (error.stack ?? error.message));
      for (const test of module.children.allTests()) {
        const { check, measurement } = test.meta();
        if (check) this.verdicts.push(check);
        else if (measurement) this.measurements.push(measurement);
        else if (test.result().state === "failed") this.errors.push(`${test.fullName}: ${test.result().errors?.[0]?.message}`);
      }
    }
    for (const error of unhandledErrors) this.errors.push(String((error as Error)?.stack ?? error));
  }
}
