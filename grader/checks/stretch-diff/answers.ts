// Calling firstDivergence on many pairs of histories in one scenario, and judging each answer
// against the one its case carries.
import { describeResult, toldUnexpected } from "../../grading/calls.js";
import { toldOutcome } from "../../grading/told.js";
import type { Sandbox } from "../../sandbox/supervisor/host-client.js";
import type { CallResult, ScenarioStep } from "../../sandbox/messages/scenario.js";
import { showState } from "../../grading/states.js";
import type { Picture } from "../../contract/picture.js";
import { answerPicture } from "./diff-picture.js";
import { explainDivergence, isPathList, pathSetKey, showPaths, type DiffCase, type Divergence, type Judged, type Path } from "./divergence.js";

/** A call of firstDivergence(a, b) that sends back what it returned. */
export function divergeStep(a: readonly unknown[], b: readonly unknown[]): ScenarioStep {
  return { call: "firstDivergence", args: [a, b], want: "value" };
}

/**
 * Calls firstDivergence on every case in one scenario; the story of the first wrong answer, or
 * null when all are right. With `draw`, also says how to draw that answer beside its histories.
 */
export async function firstWrongAnswer(box: Sandbox, cases: DiffCase[], judged: Judged, opts: { draw?: (picture: () => Picture | null) => void } = {}): Promise<string | null> {
  const { results } = await box.run("diff", { steps: cases.map((c) => divergeStep(c.a, c.b)) });
  for (const [i, c] of cases.entries()) {
    const problem = judgeAnswer(results[i]!, c, judged);
    if (!problem) continue;
    opts.draw?.(() => answerPicture({ call: "firstDivergence(a, b)", names: ["a", "b"], ...c, result: results[i]!, judged }));
    return `Given the histories\n  a = ${showState(c.a, 200)}\n  b = ${showState(c.b, 200)}\n${problem}.`;
  }
  return null;
}

/** Null when `r`, firstDivergence's answer for the case's histories, is right in what `judged` covers; otherwise what was wrong. */
export function judgeAnswer(r: CallResult, { a, b, expected }: DiffCase, judged: Judged, call = "firstDivergence(a, b)"): string | null {
  const { answer, why } = explainDivergence(expected, a, b);
  if (r.status !== "returned") return toldUnexpected("firstDivergence", r), `${describeResult(call, r, { call: "firstDivergence" })}; expected ${answer}: ${why}`;
  const got = r.value.value;
  if (expected === null) return got === null ? null : (wrong("firstDivergence returned a divergence of histories that never diverge"), `${call} returned ${r.value.preview}; expected null: ${why}`);
  const step = (got as Partial<Divergence> | null)?.step;
  if (!Number.isInteger(step)) return wrong(got === null ? "firstDivergence returned null for histories that diverge" : "firstDivergence returned no step"), `${call} returned ${r.value.preview}; expected ${answer}: ${why}`;
  if (step !== expected.step) return wrong(`firstDivergence returned ${step! < expected.step ? "an earlier" : "a later"} step`), `${call} returned step ${step}; expected step ${expected.step}: ${why}`;
  if (judged === "step") return null;
  const paths = (got as Partial<Divergence>).paths;
  if (!isPathList(paths)) return wrong("firstDivergence returned paths that are not a list of paths"), `${call} returned ${r.value.preview}; expected paths to be an array of paths, each an array of keys (strings) and indices (numbers): ${why}`;
  return comparePaths(call, paths, expected);
}

/** What firstDivergence got wrong, as the failure's outcome (told.ts). */
function wrong(outcome: string): void {
  toldOutcome(outcome, { judged: true });
}

/** Null when `paths` is the expected set (order and repeats aside); else which paths are missing and which are not differences. */
function comparePaths(call: string, paths: Path[], expected: Divergence): string | null {
  if (pathSetKey(paths) === pathSetKey(expected.paths)) return null;
  const want = new Set(expected.paths.map((p) => JSON.stringify(p)));
  const have = new Set(paths.map((p) => JSON.stringify(p)));
  const missing = expected.paths.filter((p) => !have.has(JSON.stringify(p)));
  const extra = paths.filter((p) => !want.has(JSON.stringify(p)));
  const parts = [
    missing.length > 0 ? `it left out ${showPaths(missing)}` : "",
    extra.length > 0 ? `${showPaths(extra)} ${extra.length === 1 ? "is not a path" : "are not paths"} where the states differ (or not the smallest one)` : "",
  ].filter(Boolean);
  wrong(`firstDivergence returned the right step with ${[missing.length > 0 ? "paths left out" : "", extra.length > 0 ? "paths where the states do not differ" : ""].filter(Boolean).join(" and ")}`);
  const wanted = expected.paths.length <= 8 ? `the paths ${showPaths(expected.paths)}` : `${expected.paths.length} paths`;
  const returned = paths.length === 0 ? "an empty list of paths" : `the paths ${showPaths(paths)}`;
  return `${call} returned step ${expected.step} with ${returned}; expected ${wanted} (in any order): ${parts.join("; ")}`;
}
