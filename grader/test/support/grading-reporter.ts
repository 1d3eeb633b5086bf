// What classroom-resources/autograding-grading-reporter@v1 does with its inputs, as the lab's
// platform notes describe it: for each runner id in `runners` it reads the environment variable
// `<ID uppercased>_RESULTS`, base64 of a runner result; it sums every runner's tests[].score
// against the sum of the runners' max_score (a runner with max_score 0 is skipped), writes the
// annotation "Points X/Y", and fails its step when any runner's status is "fail" or "error".
import type { RunnerResult } from "../../report/formats/runner-result.js";

export interface ReporterOutcome {
  /** Each runner's decoded result, in the order `runners` names them. */
  runners: { id: string; result: RunnerResult }[];
  points: number;
  maxPoints: number;
  /** The annotation the student sees on the run. */
  annotation: string;
  /** Whether the reporter's step (and so the job) fails. */
  failed: boolean;
}

/** Runs the reporter on its `runners` input and the step's environment; throws where the real one would crash (a runner without its variable). */
export function emulateGradingReporter(runnersInput: string, env: Record<string, string | undefined>): ReporterOutcome {
  const ids = runnersInput.split(",").map((id) => id.trim()).filter(Boolean);
  const runners = ids.map((id) => {
    const variable = `${id.toUpperCase()}_RESULTS`;
    const encoded = env[variable];
    if (!encoded) throw new Error(`the reporter finds no ${variable}: the runner ${id} wrote no result`);
    return { id, result: JSON.parse(Buffer.from(encoded, "base64").toString("utf8")) as RunnerResult };
  });
  const counted = runners.filter((r) => r.result.max_score !== 0);
  const points = counted.reduce((sum, r) => sum + r.result.tests.reduce((n, t) => n + t.score, 0), 0);
  const maxPoints = counted.reduce((sum, r) => sum + r.result.max_score, 0);
  const failed = runners.some((r) => r.result.status === "fail" || r.result.status === "error");
  return { runners, points, maxPoints, annotation: `Points ${points}/${maxPoints}`, failed };
}
