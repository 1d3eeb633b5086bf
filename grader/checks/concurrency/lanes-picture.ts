// The picture of a concurrency failure (contract/picture-lanes.ts, kind "lanes"), made from the same
// run as its story (report/run-story.ts): the steps the story lists, numbered as it
// numbers them; the reader's loads at those steps, each with what it returned, judged by the very
// list of allowed states its verdict used; and what went wrong, after which step. When the run's
// record does not say for sure what the story says (the last load is not the wrong one, a load's
// allowed state has a name it does not know), there is no picture rather than a wrong one.
import type { Execution, LoadSeen } from "../../concurrency/explore.js";
import type { Setup } from "../../concurrency/world.js";
import type { RunWrong } from "../../contract/finding.js";
import { loadWrong } from "../../grading/calls.js";
import { showState } from "../../grading/states.js";
import type { LanesFailure, LanesLoad, LanesPicture, LanesStep } from "../../contract/picture-lanes.js";
import { elided, shownName, storyWords, wentKind, wentLead, wentWords, writerName } from "../../report/run-story.js";

/** The run as the story tells it: its setup, the run, and what normalises its words (the writers' and the reader's pids, the writers' clock). */
export interface LanesInput {
  setup: Setup;
  exec: Execution;
  pids: number[];
  clockMs: number;
}

/** The picture of a run that went wrong; null when its record cannot say for sure (never throws into a check). */
export function lanesPicture(input: LanesInput): LanesPicture | null {
  try {
    return build(input);
  } catch {
    // The story is the verdict; a picture the record cannot draw is left out, never the failure's cause.
    return null;
  }
}

function build({ setup, exec, pids, clockMs }: LanesInput): LanesPicture | null {
  const problem = exec.problem;
  if (!problem) return null;
  const words = (text: string) => storyWords(text, { writers: setup.states.length, pids, clockMs });
  const kind = wentKind(problem.went);
  const steps = shownSteps(exec, problem.afterStep, words);
  const drawn = new Set(steps.filter((s) => !s.skipped).map((s) => s.n));
  const seen = (exec.loadsSeen ?? []).filter((l) => l.afterStep <= problem.afterStep);
  const loads: LanesLoad[] = [];
  for (const [i, load] of seen.entries()) {
    const wrong = (kind === "load" || kind === "final") && i === seen.length - 1;
    if (load.afterStep !== 0 && !drawn.has(load.afterStep) && !wrong) continue;
    const drawnLoad = loadOf(load, setup.old, words);
    if (!drawnLoad) return null;
    loads.push(wrong ? { ...drawnLoad, wrong: true } : drawnLoad);
  }
  const failure = failureOf(problem, words);
  if (failure.kind === "load" || failure.kind === "final") {
    // The wrong load is the run's last, after the step the story names, and judged wrong by its own list.
    const last = seen.at(-1);
    if (!last || last.afterStep !== problem.afterStep || last.final !== (kind === "final")) return null;
    if (last.result && loadWrong(last.result, last.allowed) === null) return null;
  }
  return {
    kind: "lanes",
    writers: setup.states.map((s, i) => ({ name: writerName(i), saves: words(showState(s, 60)) })),
    before: setup.old ? words(showState(setup.old.state, 60)) : null,
    steps,
    loads,
    failure,
  };
}

/** The steps the story lists before the failure, numbered as it numbers them, with the same run left out. */
function shownSteps(exec: Execution, afterStep: number, words: (text: string) => string): LanesStep[] {
  const did = (d: NonNullable<typeof exec.steps[number]["did"]>) => ({ ...d, ...(d.touched !== undefined ? { touched: words(d.touched) } : {}) });
  const all = exec.steps.slice(0, afterStep).map((s, i): LanesStep => ({ n: i + 1, writer: writerName(s.writer), what: words(s.what), ...(s.did ? { did: did(s.did) } : {}), ...(s.failed ? { failed: true } : {}) }));
  const shown = elided(all, (hidden): LanesStep => ({ n: 0, skipped: hidden }));
  // A gap starts one after the step before it.
  return shown.map((s, i) => (s.skipped ? { ...s, n: shown[i - 1]!.n + 1 } : s));
}

/** What one load returned, as the drawings label it; null when an allowed state has a name this does not know. */
function loadOf(load: LoadSeen, old: Setup["old"], words: (text: string) => string): LanesLoad | null {
  const base = { afterStep: load.afterStep, ...(load.final ? { final: true } : {}) };
  const changed = load.changed?.map((n) => words(`${n.removed ? "removed" : "changed"} ${shownName(n.name)}`));
  const extra = changed?.length ? { changed } : {};
  const r = load.result;
  if (!r) return { ...base, saw: "no answer", ...extra };
  const states: string[] = [];
  for (const allowed of load.allowed) {
    if (loadWrong(r, [allowed]) !== null) continue;
    // Whose save the state is; a state nobody saved is "no checkpoint" (noCheckpoint's null).
    const name = allowed.whose === "old" ? "old" : allowed.whose !== undefined ? writerName(allowed.whose) : allowed.state === null ? (r.status === "returned" && r.value.isNull ? "null" : "none") : undefined;
    if (name === undefined) return null;
    if (!states.includes(name)) states.push(name);
  }
  // A load judged against the writers' states alone (the final one) may still be null or the old state: said so.
  if (!states.length && r.status === "returned" && r.value.isNull) states.push("null");
  if (!states.length && old && loadWrong(r, [{ label: "the old state", state: old.state }]) === null) states.push("old");
  if (states.length) return { ...base, saw: "state", states, ...extra };
  if (r.status === "threw") return { ...base, saw: "threw", error: r.error.name, ...extra };
  return { ...base, saw: r.status === "returned" ? "other" : "no answer", ...extra };
}

/** What went wrong, in the story's words: whole, and its lead (what the call did, without its message). */
function failureOf({ afterStep, went }: RunWrong, words: (text: string) => string): LanesFailure {
  const short = words(wentLead(went));
  return {
    kind: wentKind(went),
    afterStep,
    ...(went.kind === "writer-failed" ? { writer: writerName(went.writer) } : {}),
    short: short.length > 100 ? `${short.slice(0, 99)}…` : short,
    text: words(wentWords(went)),
  };
}
