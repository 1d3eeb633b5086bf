// A vitest reporter that collects each check's verdict from its test's `meta`.
import type { Reporter, TestModule } from "vitest/node";
import type { CheckMeta } from "../grading/verdict.js";
import type { MeasurementMeta } from "./measurement.js";

export class VerdictCollector implements Reporter {
  readonly verdicts: CheckMeta[] = [];
  /** What deliverables measured without scoring it. */
  readonly measurements: MeasurementMeta[] = [];
  /** Errors outside any check (a check file that failed to load): the grade could not run. */
  readonly errors: string[] = [];

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
