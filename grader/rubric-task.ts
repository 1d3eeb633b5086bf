// The lab task as the manifest sets it (grader/rubric.json, "task"): how many steps it has, the
// step budgets of the handout's three sessions, and the step whose entry the handout's real kill
// lands on. Every check, the lab module the grader serves and the manifest's own words read them
// from here: a check's title or "asks" says `{task.steps}`, `{task.sessions}` or
// `{task.killedAtStep}` where it names them, and the loaded manifest says the numbers.

export interface LabTaskSettings {
  /** How many steps the lab task has: labTask() runs steps 1 to `steps`. */
  steps: number;
  /** The step budgets of the handout's three sessions (Phase 3, stretch-git): they add up to `steps`. */
  sessions: number[];
  /** The step whose entry the handout's real kill lands on (phase2.killed-at-step-6): 2 to `steps`. */
  killedAtStep: number;
}

/** The handout's task, for each key the manifest leaves out. */
export const DEFAULT_TASK: LabTaskSettings = { steps: 10, sessions: [4, 4, 2], killedAtStep: 6 };

/**
 * The manifest as its schema has checked it, as far as the task goes: its task as the file gives
 * it (keys missing), and each check's words. (Written here, not taken from rubric.ts, which builds on this file.)
 */
type GivenRubric = { task?: Partial<LabTaskSettings>; deliverables: { checks: { id: string; title: string; asks: string }[] }[] };

/**
 * What is wrong with the manifest's task beyond its schema, and the words of its checks that name
 * a key of the task it does not have; each with the JSON pointer of where it is.
 */
export function taskMistakes(rubric: GivenRubric): { pointer: string; text: string }[] {
  const given = rubric.task ?? {};
  const task = { ...DEFAULT_TASK, ...given };
  // A key the file leaves out is named as the default it is, and the place is the key it set.
  const named = (key: keyof LabTaskSettings) => `task.${key}${key in given ? "" : " (by default)"}`;
  const at = (key: keyof LabTaskSettings) => `/task/${key in given ? key : "steps"}`;
  const mistakes: { pointer: string; text: string }[] = [];
  const sum = task.sessions.reduce((n, b) => n + b, 0);
  if (sum !== task.steps) mistakes.push({ pointer: at("sessions"), text: `${named("sessions")} ${task.sessions.join(", ")} add up to ${sum}; they must add up to ${named("steps")}, ${task.steps}` });
  if (task.killedAtStep > task.steps) mistakes.push({ pointer: at("killedAtStep"), text: `${named("killedAtStep")} is ${task.killedAtStep}; it must be a step of the task, from 2 to ${named("steps")}, ${task.steps}` });
  rubric.deliverables.forEach((d, di) =>
    d.checks.forEach((c, ci) => {
      for (const field of ["title", "asks"] as const) {
        for (const key of unknownKeys(c[field])) mistakes.push({ pointer: `/deliverables/${di}/checks/${ci}/${field}`, text: `${c.id}'s ${field} says {task.${key}}, which is not a key of the task: it may say ${Object.keys(DEFAULT_TASK).map((k) => `{task.${k}}`).join(", ")}` });
      }
    }),
  );
  return mistakes;
}

/** The manifest (with no taskMistakes) with its task's missing keys filled in and its checks' words saying the task's numbers. */
export function withTask<R extends GivenRubric>(rubric: R): Omit<R, "task"> & { task: LabTaskSettings } {
  const task = { ...DEFAULT_TASK, ...rubric.task };
  const words: Record<keyof LabTaskSettings, string> = { steps: String(task.steps), sessions: inWords(task.sessions), killedAtStep: String(task.killedAtStep) };
  const say = (text: string) => text.replace(PLACEHOLDER, (whole, key: string) => (Object.hasOwn(words, key) ? words[key as keyof LabTaskSettings] : whole));
  const deliverables = rubric.deliverables.map((d) => ({ ...d, checks: d.checks.map((c) => ({ ...c, title: say(c.title), asks: say(c.asks) })) })) as R["deliverables"];
  return { ...rubric, deliverables, task };
}

/** `{task.steps}`: a key of the task in a check's words (other braces, such as `{}`, are words). */
const PLACEHOLDER = /\{task\.([A-Za-z]+)\}/g;

function unknownKeys(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((key) => !Object.hasOwn(DEFAULT_TASK, key));
}

/**
 * The steps whose checkpoints stretch-git's comparison crashes: four spread evenly from the first
 * to the last (1, 4, 7 and 10 of 10 steps; 1, 7, 14 and 20 of 20).
 */
export function comparisonSteps(task: Pick<LabTaskSettings, "steps">): number[] {
  return [...new Set([0, 1, 2, 3].map((k) => 1 + Math.round((k * (task.steps - 1)) / 3)))];
}

/** "4, 4 and 2". */
export function inWords(numbers: readonly number[]): string {
  return numbers.length < 2 ? numbers.join("") : `${numbers.slice(0, -1).join(", ")} and ${numbers.at(-1)}`;
}
