// stretch-diff.two-prompts: the handout's stretch goal with the real lab task. recordHistory runs
// it with two different prompts (and the first prompt again) into empty folders; a fresh process
// loads each history back, which must be the task's real states; firstDivergence then finds where
// the two prompts' runs part ways, and that two runs of one prompt never do. The answers expected
// are known from how the task builds its states (lab-runs.ts), not worked out by a diff.
import { DEFAULT_PROMPT, expectedStates } from "../../../lab/task.js";
import { describeResult, toldUnexpected } from "../../grading/calls.js";
import { toldOutcome } from "../../grading/told.js";
import type { CheckDefinition } from "../../grading/harness.js";
import { showState } from "../../grading/states.js";
import type { CallResult, ScenarioStep } from "../../sandbox/messages/scenario.js";
import { divergeStep, judgeAnswer } from "./answers.js";
import { answerPicture, loadedPicture } from "./diff-picture.js";
import type { Divergence } from "./divergence.js";
import { labPaths, promptRunsDivergence, sameJson, whichRunState } from "./lab-runs.js";

const PROMPT_B = "Summarise the incident report, two findings per step.";

/** The three runs: folder, prompt, and how messages name them. */
const RUNS = [
  { dir: "work/history-a", prompt: DEFAULT_PROMPT, label: "prompt A" },
  { dir: "work/history-b", prompt: PROMPT_B, label: "prompt B" },
  { dir: "work/history-a-again", prompt: DEFAULT_PROMPT, label: "prompt A, run again" },
];

export const twoPrompts: CheckDefinition = {
  id: "stretch-diff.two-prompts",
  async run(ctx) {
    // The states after each step, as the grader computes them: element i is the state after step i + 1.
    const [a, b, again] = RUNS.map((run) => expectedStates({ prompt: run.prompt, steps: ctx.config.rubric.task.steps }).slice(1));
    const steps: ScenarioStep[] = [
      ...RUNS.map((run): ScenarioStep => ({ mkdir: run.dir })),
      ...RUNS.map((run): ScenarioStep => ({ call: "recordHistory", args: [{ $task: { prompt: run.prompt } }, { $path: run.dir }] })),
      { fresh: true },
      ...RUNS.map((run): ScenarioStep => ({ call: "loadHistory", args: [{ $path: run.dir }], want: "value" })),
      divergeStep(a!, b!),
      divergeStep(a!, again!),
    ];
    const { results } = await ctx.sandbox().run("diff", { steps });
    const histories = [a!, b!, again!];
    // Each judged only when those before it found nothing: the outcome told is the problem's the story tells.
    const recorded = RUNS.map((run, i) => checkRecorded(results[i]!, run.label)).find(Boolean);
    const loads = recorded ? [] : RUNS.map((run, i) => checkLoaded(results[3 + i]!, histories[i]!, run));
    const loaded = loads.find((l) => l.problem)?.problem;
    const compared = COMPARED.map((c, i) => ({ ...c, a: a!, b: histories[c.with]!, expected: promptRunsDivergence(RUNS[0]!.prompt, RUNS[c.with]!.prompt), result: results[6 + i]!, judged: "paths" as const }));
    const answers = recorded || loaded ? [] : compared.map((c) => judgeAnswer(c.result, c, "paths", c.call));
    const diverged = answers.find(Boolean);
    const problem = recorded ?? loaded ?? diverged;
    if (!problem) return ctx.passed();
    if (!recorded) {
      // The picture of the problem the story tells: the history loaded wrong, else the wrong answer.
      const load = loads.findIndex((l) => l.problem);
      const call = `loadHistory(historyDir) for ${RUNS[load]?.label}`;
      ctx.draw(() => (load >= 0 ? loadedPicture(call, results[3 + load]!, histories[load]!, loads[load]!.divergence) : answerPicture(compared[answers.findIndex(Boolean)]!)));
    }
    const setting =
      `recordHistory ran the lab task (${a!.length} steps) with prompt A ${JSON.stringify(DEFAULT_PROMPT)} into an empty folder, ` +
      `with prompt B ${JSON.stringify(PROMPT_B)} into another, and with prompt A again into a third; then a fresh process loaded each history back and compared them.`;
    return ctx.failed(`${setting}\n${problem}.`);
  },
};

/** The two comparisons, as messages name them: A with B (they part ways) and A with A run again (they never do). */
const COMPARED = [
  { call: "firstDivergence(history A, history B)", names: ["history A", "history B"], with: 1 },
  { call: "firstDivergence(history A, history A run again)", names: ["history A", "history A run again"], with: 2 },
] as const;

/** Null when recordHistory returned; otherwise what it did. */
function checkRecorded(r: CallResult, label: string): string | null {
  return r.status === "returned" ? null : `For ${label}, ${describeResult("recordHistory(task, historyDir)", r, { call: "recordHistory" })}`;
}

/**
 * Null when loadHistory gave back exactly `expected`, the task's state after each step of `run`
 * (key order aside); otherwise how it differs, and where they first diverge when that is known:
 * a step only one of them has, an element that is another of the task's states, or one that is
 * no object.
 */
export function checkLoaded(r: CallResult, expected: readonly unknown[], run: (typeof RUNS)[number]): { problem: string | null; divergence: Divergence | null } {
  const call = `loadHistory(historyDir) for ${run.label}`;
  const want = `the ${expected.length} states after steps 1 to ${expected.length}, in order`;
  const told = (problem: string, divergence: Divergence | null = null, outcome?: string) => {
    if (outcome) toldOutcome(outcome, { judged: true });
    return { problem, divergence };
  };
  if (r.status !== "returned") return toldUnexpected("loadHistory", r), told(`${describeResult(call, r, { call: "loadHistory" })}; expected ${want}`);
  const got = r.value.value;
  if (!Array.isArray(got)) return told(`${call} returned ${r.value.preview}; expected an array of ${want}`, null, "loadHistory returned no array");
  const shared = Math.min(got.length, expected.length);
  const i = got.slice(0, shared).findIndex((state, i) => !sameJson(state, expected[i]));
  if (i < 0) return got.length === expected.length ? { problem: null, divergence: null } : told(`${call} returned ${got.length} states; expected ${want}`, { step: shared + 1, paths: [[]] }, `loadHistory returned ${got.length < expected.length ? "fewer" : "more"} states than the task has steps`);
  // Whose state it holds there, when it is another of the task's (a history sorted by name puts step 10 before step 2).
  const other = whichRunState(got[i], [...new Set(RUNS.map((r) => r.prompt))], expected.length);
  const there = `${call} returned ${got.length} states, and its element ${i} is not the task's state after step ${i + 1}`;
  if (other === null) {
    // Each of the task's states is an object: a value of another kind differs from it as a whole.
    const object = got[i] !== null && typeof got[i] === "object" && !Array.isArray(got[i]);
    if (object) return told(`${there}: it is ${showState(got[i], 120)}, none of the task's states`, null, "loadHistory returned a state the task never produced");
    return told(`${there}: it is ${showState(got[i], 120)}, not an object as each of the task's states is`, { step: i + 1, paths: [[]] }, "loadHistory returned an element that is no object");
  }
  const divergence = { step: i + 1, paths: labPaths(other, { prompt: run.prompt, step: i + 1 }) };
  const whose = other.step === 0 ? "the task's initial state" : `the state after step ${other.step}`;
  const ofRun = other.prompt === run.prompt ? "" : ` of the run with ${RUNS.find((r) => r.prompt === other.prompt)!.label}`;
  return told(`${there}: it is ${whose}${ofRun}`, divergence, `loadHistory returned ${other.step === 0 ? "the initial state" : "another step's state"}${ofRun ? " of the run with the other prompt" : ""} in a step's place`);
}
