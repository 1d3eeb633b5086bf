// The live progress of one grade, set up from what it grades. (A replay runs one case and shows
// nothing live: what it prints is its own, replay.ts; the command line starts none for it.)
import type { Rubric } from "../../rubric.js";
import { wantsColor } from "../layout.js";
import { scoreboardHeader } from "../terminal.js";
import { LiveOutput, type ProgressStream } from "./live-output.js";
import { GradeProgress } from "./progress.js";

export interface LiveGrade {
  rubric: Rubric;
  /** The deliverables the grade runs, each with the ids of its selected checks. */
  deliverables: { id: string; checks: string[] }[];
  /** The target as the scoreboard's header names it, and the seed. */
  target: string;
  seed: number;
  startedAt: number;
}

/** Progress of `grade` written to `stream`. */
export function startLiveOutput(grade: LiveGrade, output: { stream: ProgressStream; env: NodeJS.ProcessEnv }): LiveOutput {
  const progress = new GradeProgress(grade.rubric, grade.deliverables, grade.startedAt);
  // The scoreboard's own header, which the scoreboard draws again in its place.
  const header = scoreboardHeader({ target: grade.target, seed: grade.seed });
  return new LiveOutput(progress, output.stream, { header, color: wantsColor(output.stream, output.env) });
}
