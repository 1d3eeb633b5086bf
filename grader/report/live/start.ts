// The live progress of one grade, set up from what it grades. A replay runs one case and shows
// nothing live: what it prints is its own (replay.ts).
import { isSelected, type GradeConfig } from "../../grading/config.js";
import type { RubricDeliverable } from "../../rubric.js";
import { wantsColor } from "../layout.js";
import { scoreboardHeader } from "../terminal.js";
import { LiveOutput, type ProgressStream } from "./live-output.js";
import { GradeProgress } from "./progress.js";

/** Progress written to `stream` for the `deliverables` a grade runs (with their selected checks), or null for a replay. */
export function startLiveOutput(opts: { config: GradeConfig; deliverables: RubricDeliverable[]; startedAt: number; stream: ProgressStream; env: NodeJS.ProcessEnv }): LiveOutput | null {
  const { config } = opts;
  if (config.replayPath) return null;
  const selected = opts.deliverables.map((d) => ({ id: d.id, checks: d.checks.filter((c) => isSelected(config, c.id)).map((c) => c.id) }));
  const progress = new GradeProgress(config.rubric, selected, opts.startedAt);
  // The scoreboard's own header, which the scoreboard draws again in its place.
  const header = scoreboardHeader({ target: config.targetArg || "starter", seed: config.seed });
  return new LiveOutput(progress, opts.stream, { header, color: wantsColor(opts.stream, opts.env) });
}
