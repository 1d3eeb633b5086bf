// Where the lab task's states differ, known from how lab/task.ts builds them, for
// stretch-diff.two-prompts. The grader holds no general diff of two JSON values: a check that
// compares firstDivergence's answer with one would ship that answer to every student. Instead:
// - a state of a crash-free run is named by its prompt and its step (expectedStates gives it);
// - a step (advance in lab/task.ts) copies the prompt, sets `step`, folds a digest into `chain`,
//   and appends note i (step i + 1's: its `step`, its `text` with the prompt in it, its 48
//   `words`, both drawn from the run's digests); so two states differ at most at "prompt",
//   "step", "chain", each shared note's "text" and words, and each note only one state has.
// Those few places are compared one by one; nothing else is looked at. The functions take a
// prompt and a step, never two histories: wired as a student's firstDivergence they throw.
// Whether a loaded state is one of the task's is told by lab/canonical.ts's key-order free JSON,
// which the lab already gives students.
import { canonicalJson } from "../../../lab/canonical.js";
import { expectedStates, type LabState } from "../../../lab/task.js";
import type { Divergence, Path } from "./divergence.js";

/** A state of a crash-free run of the lab task: the prompt it ran with, and the step it is after (0: the initial state). */
export interface RunState {
  prompt: string;
  step: number;
}

/** Where the lab task's run with prompt `a` and its run with prompt `b` first part ways: null for one prompt, whose runs are the same; else step 1, whose state holds the prompt. */
export function promptRunsDivergence(a: string, b: string): Divergence | null {
  if (typeof a !== "string" || typeof b !== "string") throw new TypeError("promptRunsDivergence takes two prompts");
  return a === b ? null : { step: 1, paths: labPaths({ prompt: a, step: 1 }, { prompt: b, step: 1 }) };
}

/** Every smallest path where the states `x` and `y` differ (none for the same state). */
export function labPaths(x: RunState, y: RunState): Path[] {
  const [s, t] = [stateOf(x), stateOf(y)];
  const paths: Path[] = [];
  if (x.prompt !== y.prompt) paths.push(["prompt"]);
  if (x.step !== y.step) paths.push(["step"]);
  if (s.chain !== t.chain) paths.push(["chain"]);
  // Note i is step i + 1's in both, so its "step" is the same; a run's text and words are its own.
  const shared = Math.min(s.notes.length, t.notes.length);
  for (let i = 0; i < shared; i++) {
    const [m, n] = [s.notes[i]!, t.notes[i]!];
    if (m.text !== n.text) paths.push(["notes", i, "text"]);
    for (let j = 0; j < m.words.length; j++) if (m.words[j] !== n.words[j]) paths.push(["notes", i, "words", j]);
  }
  // The notes of the steps only the later state has done.
  for (let i = shared; i < Math.max(s.notes.length, t.notes.length); i++) paths.push(["notes", i]);
  return paths;
}

/** Which state of the runs of `steps` steps with `prompts` `value` is (key order aside); null when it is none of them. */
export function whichRunState(value: unknown, prompts: readonly string[], steps: number): RunState | null {
  const text = canonicalJson(value);
  // From the last step down, so each run is made once (a run's states are all different).
  for (const prompt of prompts)
    for (let step = steps; step >= 0; step--) if (canonicalJson(stateOf({ prompt, step })) === text) return { prompt, step };
  return null;
}

/** Whether two values are the same JSON value, key order aside. */
export function sameJson(x: unknown, y: unknown): boolean {
  return canonicalJson(x) === canonicalJson(y);
}

/** The runs' states by prompt, each run made once. */
const runs = new Map<string, LabState[]>();

function stateOf({ prompt, step }: RunState): LabState {
  if (typeof prompt !== "string" || !Number.isInteger(step) || step < 0) throw new TypeError("a state of the lab task is named by its prompt and a step from 0");
  // A run's states do not depend on how many steps come after them: a longer run only adds states.
  if ((runs.get(prompt)?.length ?? 0) <= step) runs.set(prompt, expectedStates({ prompt, steps: step }));
  return runs.get(prompt)![step]!;
}
