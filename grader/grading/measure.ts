// Measurements: what a deliverable reports without scoring it. A measurement runs the student's
// own files of several modules (never the reference's: it describes what the student wrote) and
// returns a table for the report; nothing it finds costs or earns a point.
import type { MeasurementReport } from "../contract/measurement.js";
import type { GradeConfig } from "./config.js";
import { CheckContext } from "./context.js";
import fs from "node:fs";
import path from "node:path";
import { SandboxFailure } from "../sandbox/supervisor/host-client.js";
import { formatSeconds } from "../sandbox/messages/limits.js";
import { prepareTarget, type Variant } from "./prepare.js";
import { leaveTrace, union, type Trace } from "../target/trace.js";
import { sandboxStory } from "./property.js";
import { ProcessorClock, withinDeadline } from "../sandbox/supervisor/processor-clock.js";
import { checkWallCapMs } from "../sandbox/supervisor/limits.js";

export interface MeasurementDefinition {
  /** "stretch-git.comparison": selected like a check of its deliverable. */
  id: string;
  /** The title its table has in the report. */
  title: string;
  /** The modules it runs ("runner"), each bundled from the student's own files. */
  modules: string[];
  /** Measures; `unusable` names each module that could not be bundled, with why. */
  run(ctx: CheckContext, unusable: Record<string, string>): Promise<MeasurementReport>;
}

/** Bundles the measurement's modules and runs it; the sandboxes it made are closed when it ends. */
export async function runMeasurement(m: MeasurementDefinition, config: GradeConfig): Promise<MeasurementReport> {
  const bundles: Record<string, string> = {};
  const unusable: Record<string, string> = {};
  // Bundled into a folder of its own: a check may be writing the same module's bundle meanwhile.
  const work = path.join(config.work, "measure");
  fs.mkdirSync(work, { recursive: true });
  const traces: Trace[] = [];
  for (const main of m.modules) {
    const prepared = await prepareTarget(config, { main }, { bundles: work });
    if (prepared.variants[0]) Object.assign(bundles, prepared.variants[0].bundles);
    else unusable[main] = prepared.problem ?? `${main}.ts could not be compiled`;
    traces.push(prepared.inputs);
  }
  // Its report depends on every module it runs: the verdict cache keys it by all their reads.
  // One the machine cut short (or that could not run) leaves none: its deliverable is not cached.
  const inputs = union(traces);
  const variant: Variant = { label: "", bundles, standIns: [] };
  // A measurement never stops the grade: a target that hangs, or kills what runs it, leaves a
  // report that says so. It has the time of one check, counted as a check's is (processor-clock.ts).
  const { checkMs } = config.rubric.limits;
  const clock = ProcessorClock.start();
  const ctx = new CheckContext(config, m.id, variant, clock);
  const late = (why: "deadline" | "machine"): string =>
    why === "machine"
      ? `the machine was too busy to measure it: in ${formatSeconds(clock.wallMs())} it had ${formatSeconds(clock.usedMs())} of the ${formatSeconds(checkMs)} a measurement may take (it is not scored)`
      : `the measurement did not finish within ${formatSeconds(checkMs)}, the most one may take (it is not scored)`;
  try {
    const outcome = await withinDeadline<MeasurementReport | string>(m.run(ctx, unusable), { clock, usedMs: checkMs, wallMs: checkWallCapMs(config.rubric.limits) }, late);
    if (typeof outcome === "string") return unmeasured(m, outcome);
    if (inputs && !ctx.limitHit) leaveTrace(config.work, m.id, inputs);
    return outcome;
  } catch (error) {
    return unmeasured(m, error instanceof SandboxFailure ? sandboxStory(error) : `the grader could not measure it (${(error as Error)?.message ?? error})`);
  } finally {
    clock.stop();
    await ctx.close();
  }
}

/** The report of a measurement that could not be made, with why. */
function unmeasured(m: MeasurementDefinition, why: string): MeasurementReport {
  return { id: m.id, title: m.title, columns: [], rows: [], note: `Not measured: ${why.replace(/\.$/, "")}.`, data: null };
}
