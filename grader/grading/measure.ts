// Measurements: what a deliverable reports without scoring it. A measurement runs the student's
// own files of several modules (never the reference's: it describes what the student wrote) and
// returns a table for the report; nothing it finds costs or earns a point.
import type { MeasurementReport } from "../report/measurement.js";
import type { GradeConfig } from "./config.js";
import { CheckContext } from "./context.js";
import fs from "node:fs";
import path from "node:path";
import { prepareTarget, type Variant } from "./prepare.js";

export interface MeasurementDefinition {
  /** "stretch-git.comparison": selected like a check of its deliverable. */
  id: string;
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
  for (const main of m.modules) {
    const prepared = await prepareTarget({ ...config, work }, { main });
    if (prepared.variants[0]) Object.assign(bundles, prepared.variants[0].bundles);
    else unusable[main] = prepared.problem ?? `${main}.ts could not be compiled`;
  }
  const variant: Variant = { label: "", bundles };
  const ctx = new CheckContext(config, m.id, variant);
  try {
    return await m.run(ctx, unusable);
  } finally {
    await ctx.close();
  }
}
