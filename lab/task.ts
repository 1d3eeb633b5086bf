// The lab's task, 10 steps unless the lab's manifest (grader/rubric.json, "task") says otherwise.
// Students import it as "@lab/task"; the grader always serves this copy, with the steps of the
// manifest it grades with.
//
// Each step depends on the whole state before it (it folds a digest of that state into the next
// one), so resuming from the wrong state shows in every later step. Each step also performs a
// side effect that is recorded outside the checkpoint, durably: the step, the process id, and
// digests of the state it started from and the state it produced. That record is the lab's
// side-effect counter: it shows which steps ran, how often, and on what.
import { appendFileSync, closeSync, fsyncSync, openSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { stateDigest } from "./canonical.js";

/** A task that runs in numbered steps, 1 to `steps`. */
export interface Task<S> {
  id: string;
  steps: number;
  initialState(): S;
  /** Performs step `step` (its side effect included) and returns the state after it. */
  runStep(step: number, state: S): S;
}

/** The lab task's state: grows by about 3 KiB a step (31 KiB as a checkpoint after 10 steps). */
export interface LabState {
  prompt: string;
  /** The number of the last step done (0 before any step). */
  step: number;
  /** A running digest of everything so far. */
  chain: string;
  notes: { step: number; text: string; words: string[] }[];
}

/** One side effect of a step, as the record keeps it. */
export interface SideEffect {
  step: number;
  pid: number;
  /** "enter" when runStep starts, "done" when its side effect is performed. */
  phase: "enter" | "done";
  input: string;
  output?: string;
}

/** Where side effects go; the grader installs its own. */
export type SideEffectSink = (effect: SideEffect) => void;

export const DEFAULT_PROMPT = "Summarise the incident report, one finding per step.";
const WORDS = ["rename", "fsync", "journal", "crash", "resume", "atomic", "replay", "commit", "torn", "durable", "session", "step"];

let sink: SideEffectSink = fileSink(process.env.LAB_SIDE_EFFECTS ?? "side-effects.jsonl");

/** The handout's step count, for a lab whose manifest does not set one. */
const HANDOUT_STEPS = 10;

/** How many steps the lab's task has: the manifest's, so that a run by hand runs the steps a grade runs. */
export const TASK_STEPS = manifestSteps();

/**
 * The steps of the manifest beside this file (../grader/rubric.json), or the handout's 10 when it
 * cannot be read there (the grader's own copy, bundled, is told the steps instead).
 */
function manifestSteps(): number {
  try {
    const manifest = JSON.parse(readFileSync(new URL("../grader/rubric.json", import.meta.url), "utf8")) as { task?: { steps?: unknown } };
    const steps = manifest.task?.steps;
    return typeof steps === "number" && Number.isInteger(steps) && steps > 0 ? steps : HANDOUT_STEPS;
  } catch {
    return HANDOUT_STEPS;
  }
}

/** The lab's task: TASK_STEPS steps over a prompt (another prompt gives another run, for session diffing). */
export function labTask(options: { prompt?: string; steps?: number } = {}): Task<LabState> {
  const prompt = options.prompt ?? DEFAULT_PROMPT;
  const steps = options.steps ?? TASK_STEPS;
  return {
    id: `lab-task:${stateDigest(prompt).slice(0, 8)}`,
    steps,
    initialState: () => initialState(prompt),
    runStep(step, state) {
      const input = stateDigest(state);
      sink({ step, pid: process.pid, phase: "enter", input });
      const next = advance(step, state, input);
      sink({ step, pid: process.pid, phase: "done", input, output: stateDigest(next) });
      return next;
    },
  };
}

function initialState(prompt: string): LabState {
  return { prompt, step: 0, chain: stateDigest(prompt), notes: [] };
}

/** The pure part of a step: the next state from the step number and the whole previous state. */
function advance(step: number, state: LabState, input: string): LabState {
  const seed = parseInt(input.slice(0, 8), 16);
  const words = Array.from({ length: 48 }, (_, i) => WORDS[(seed >>> (i % 24)) % WORDS.length]! + ((seed + i * step) % 97));
  const text = `Step ${step} of "${state.prompt}": finding ${input.slice(0, 12)} ` + words.join(" ").repeat(6);
  return {
    prompt: state.prompt,
    step,
    chain: stateDigest([state.chain, step, input]),
    notes: [...state.notes, { step, text, words }],
  };
}

/** Replaces where side effects are recorded (the grader does this for every run it observes). */
export function setSideEffectSink(next: SideEffectSink): void {
  sink = next;
}

/** A sink that appends one JSON line per effect to `file` and makes it durable before going on. */
export function fileSink(file: string): SideEffectSink {
  return (effect) => {
    const fd = openSync(resolve(file), "a");
    try {
      appendFileSync(fd, JSON.stringify(effect) + "\n");
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  };
}

/** The states of a crash-free run: `states[s]` is the state after step s, `states[0]` the initial one. */
export function expectedStates(options: { prompt?: string; steps?: number } = {}): LabState[] {
  const states = [initialState(options.prompt ?? DEFAULT_PROMPT)];
  for (let step = 1; step <= (options.steps ?? TASK_STEPS); step++) {
    const state = states[step - 1]!;
    states.push(advance(step, state, stateDigest(state)));
  }
  return states;
}

/** The digests of a crash-free run: `inputs[s]` is the state step s starts from, `outputs[s]` the state it returns. */
export function expectedDigests(options: { prompt?: string; steps?: number } = {}): { inputs: string[]; outputs: string[] } {
  const outputs = expectedStates(options).map((state) => stateDigest(state));
  return { inputs: ["", ...outputs.slice(0, -1)], outputs };
}
