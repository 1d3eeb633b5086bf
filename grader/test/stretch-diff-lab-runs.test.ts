// What stretch-diff.two-prompts knows of the lab task's states without a diff (lab-runs.ts): the
// paths it names between any two states of the runs it records are exactly where they differ (told
// by a comparison written for the tests alone), none of it answers firstDivergence, and a history
// loaded wrong is told by what its first wrong element is.
import { describe, expect, test } from "vitest";
import { DEFAULT_PROMPT, expectedStates, TASK_STEPS } from "../../lab/task.js";
import { labPaths, promptRunsDivergence, whichRunState, type RunState } from "../checks/stretch-diff/lab-runs.js";
import { checkLoaded } from "../checks/stretch-diff/two-prompts.js";
import type { CallResult } from "../sandbox/messages/scenario.js";
import { differences, firstDifference, pathSet } from "./stretch-diff-differences.js";

const PROMPT_B = "Summarise the incident report, two findings per step.";
const PROMPTS = [DEFAULT_PROMPT, PROMPT_B];
const STATES: RunState[] = PROMPTS.flatMap((prompt) => Array.from({ length: TASK_STEPS + 1 }, (_, step) => ({ prompt, step })));
const stateOf = ({ prompt, step }: RunState) => expectedStates({ prompt })[step];

describe("the lab task's states, known from how a step builds them", () => {
  test("for every pair of states of the runs with prompts A and B (steps 0 to 10), labPaths names exactly the paths where they differ", () => {
    for (const x of STATES)
      for (const y of STATES) expect(pathSet(labPaths(x, y)), `${JSON.stringify(x)} and ${JSON.stringify(y)}`).toBe(pathSet(differences(stateOf(x), stateOf(y))));
  });

  test("the runs of prompts A and B part ways at step 1, at its 51 paths; a prompt's run never parts from itself", () => {
    const [a, b] = PROMPTS.map((prompt) => expectedStates({ prompt }).slice(1));
    const expected = promptRunsDivergence(DEFAULT_PROMPT, PROMPT_B)!;
    expect({ step: expected.step, paths: pathSet(expected.paths) }).toEqual({ step: 1, paths: pathSet(firstDifference(a!, b!)!.paths) });
    expect(expected.paths).toHaveLength(51);
    expect(promptRunsDivergence(DEFAULT_PROMPT, DEFAULT_PROMPT)).toBeNull();
  });

  test("whichRunState names each state of either run, its keys in any order, and nothing that differs from all of them", () => {
    const reversed = (v: unknown): unknown => (Array.isArray(v) ? v.map(reversed) : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).reverse().map(([k, w]) => [k, reversed(w)])) : v);
    for (const s of STATES) expect(whichRunState(reversed(stateOf(s)), PROMPTS, TASK_STEPS)).toEqual(s);
    const changed = structuredClone(stateOf({ prompt: DEFAULT_PROMPT, step: 4 }))!;
    changed.notes[2]!.words[7] += "!";
    expect(whichRunState(changed, PROMPTS, TASK_STEPS)).toBeNull();
    expect(whichRunState(stateOf({ prompt: PROMPT_B, step: 3 }), [DEFAULT_PROMPT], TASK_STEPS)).toBeNull();
  });

  test("wired as a student's firstDivergence, neither gives an answer: given two histories, each throws", () => {
    const [a, b] = PROMPTS.map((prompt) => expectedStates({ prompt }).slice(1));
    const asFirstDivergence = [promptRunsDivergence, labPaths] as unknown as ((a: unknown, b: unknown) => unknown)[];
    for (const f of asFirstDivergence) {
      expect(() => f(a, b)).toThrow(TypeError);
      expect(() => f([1], [2])).toThrow(TypeError);
    }
  });

  test("a history loaded wrong is told by its first wrong element (another step's state, the initial one, the other prompt's, no object, none of the task's) with the divergence the picture draws, each path one where the loaded and the task's states differ", () => {
    const [a, b] = PROMPTS.map((prompt) => expectedStates({ prompt }).slice(1));
    const run = { dir: "work/history-a", prompt: DEFAULT_PROMPT, label: "prompt A" };
    const returned = (value: unknown): CallResult => ({ status: "returned", value: { digest: "d", preview: JSON.stringify(value).slice(0, 40), isNull: false, value } });
    const initial = expectedStates({ prompt: DEFAULT_PROMPT })[0];
    const changed = structuredClone(a![3]!);
    changed.chain = "0";
    const wrong: [unknown[], string, boolean][] = [
      [[a![0], a![9], ...a!.slice(1, 9)], "its element 1 is not the task's state after step 2: it is the state after step 10", true],
      [[initial, ...a!.slice(0, 9)], "its element 0 is not the task's state after step 1: it is the task's initial state", true],
      [[...a!.slice(0, 4), ...b!.slice(4)], "its element 4 is not the task's state after step 5: it is the state after step 5 of the run with prompt B", true],
      [[...a!.slice(0, 2), JSON.stringify(a![2]), ...a!.slice(3)], "its element 2 is not the task's state after step 3: it is \"{", true],
      [[...a!.slice(0, 3), changed, ...a!.slice(4)], "its element 3 is not the task's state after step 4: it is {", false],
      [a!.slice(0, 9), "returned 9 states; expected the 10 states after steps 1 to 10, in order", true],
    ];
    for (const [loaded, story, known] of wrong) {
      const told = checkLoaded(returned(loaded), a!, run);
      expect(told.problem).toContain(story);
      expect(told.divergence !== null).toBe(known);
      if (!told.divergence) continue;
      const found = firstDifference(loaded, a!)!;
      expect({ step: told.divergence.step, paths: pathSet(told.divergence.paths) }).toEqual({ step: found.step, paths: pathSet(found.paths) });
    }
    const reordered = a!.map((s) => Object.fromEntries(Object.entries(s).reverse()));
    expect(checkLoaded(returned(reordered), a!, run)).toEqual({ problem: null, divergence: null });
  });
});
