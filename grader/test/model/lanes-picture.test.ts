// The picture of a concurrency failure (checks/concurrency/lanes-picture.ts) and its terminal
// lines (contract/picture-lines-lanes.ts), from hand-made runs: its steps are the story's numbered
// lines, its loads say what each returned, the failure is marked after the step the story names,
// and its lines fit any terminal.
import pc from "picocolors";
import stringWidth from "string-width";
import { describe, expect, test } from "vitest";
import { stateDigest } from "../../../lab/canonical.js";
import { lanesPicture } from "../../checks/concurrency/lanes-picture.js";
import { runFinding } from "../../checks/concurrency/world-of.js";
import type { Execution, LoadSeen } from "../../concurrency/explore.js";
import { loadAllowed, type Setup } from "../../concurrency/world.js";
import type { RunWent } from "../../contract/finding.js";
import { loadWrong } from "../../grading/calls.js";
import { storyOf } from "../../report/finding-story.js";
import { causeOf } from "../../grading/finding-cause.js";
import { nothingTold, recordingTold } from "../../grading/told.js";
import { loadLabel, stepsCounted, type LanesPicture } from "../../contract/picture-lanes.js";
import { lanesLines } from "../../report/picture-lines-lanes.js";
import type { CallResult } from "../../sandbox/messages/scenario.js";

const PIDS = [4242, 4343, 4444];
const CLOCK = 1_760_000_000_000;
const SETUP: Setup = { old: { state: { step: 1 } }, states: [{ step: 2, by: "A" }, { step: 2, by: "B" }] };

const returned = (state: unknown): CallResult => ({ status: "returned", value: { digest: stateDigest(state), preview: JSON.stringify(state), isNull: state === null } });
const threw = (name: string, message: string, code?: string): CallResult => ({ status: "threw", error: { name, message, notImplemented: false, ...(code ? { code } : {}) } });

/**
 * A run of `calls` ("A: openSync opens x", "B! renameSync ..." for one that failed), with a load
 * after the steps in `loads`; what went wrong after `afterStep` is `went`, else the last load's
 * result against what it allowed.
 */
function execution(setup: Setup, calls: string[], loads: [number, CallResult, Partial<LoadSeen>?][], { afterStep, went }: { afterStep: number; went?: RunWent }): Execution {
  const allowed = loadAllowed(setup);
  const loadsSeen: LoadSeen[] = loads.map(([afterStep, result, extra]) => ({ afterStep, final: false, result, allowed, ...extra }));
  const last = loadsSeen.at(-1)!;
  return {
    steps: calls.map((c) => ({ writer: c.charCodeAt(0) - 65, what: c.slice(3), footprint: { reads: [], writes: [] }, failed: c[1] === "!" })),
    choices: [],
    problem: { kind: "run", afterStep, went: went ?? { kind: "reader-saw", final: false, held: { bytes: 55, start: "{}" }, wrong: loadWrong(last.result!, last.allowed)! } },
    loads: loads.length,
    loadsSeen,
    readerChanged: loadsSeen.flatMap((l) => (l.changed ? [{ afterStep: l.afterStep, names: l.changed }] : [])),
  };
}

/** The fixed-temp-name failure: B renames the shared temp away, A's write lands in the checkpoint, the load throws. */
const SHARED_TEMP = [
  "A: openSync opens checkpoint.json.tmp (w)",
  "B: openSync opens checkpoint.json.tmp (w)",
  "B: writeFileSync writes 19 bytes to checkpoint.json.tmp",
  "B: fsyncSync fsyncs checkpoint.json.tmp",
  "B: closeSync closes checkpoint.json.tmp",
  "B: renameSync renames checkpoint.json.tmp to checkpoint.json",
  "B: openSync opens the checkpoint's folder (r)",
  "B: fsyncSync fsyncs the checkpoint's folder",
  "B: closeSync closes the checkpoint's folder",
  "A: writeFileSync writes 19 bytes to checkpoint.json (opened as checkpoint.json.tmp, renamed since)",
];

function sharedTemp(): { exec: Execution; picture: LanesPicture; story: string } {
  const exec = execution(SETUP, SHARED_TEMP, [[0, returned({ step: 1 })], [6, returned({ step: 2, by: "B" })], [10, threw("SyntaxError", "Unexpected non-whitespace character after JSON at position 19")]], { afterStep: 10 });
  const picture = lanesPicture({ setup: SETUP, exec, pids: PIDS, clockMs: CLOCK });
  if (!picture) throw new Error("no picture");
  return { exec, picture, story: storyOfRun(exec, 3) };
}

/** The story of a run, as the check tells it: the `order`-th of those explored. */
function storyOfRun(exec: Execution, order: number): string {
  return storyOf(runFinding(SETUP, exec, { kind: "explored", order }, { pids: PIDS, clockMs: CLOCK }));
}

/** Each drawn step as the story's numbered line says it: "  3. B: writeFileSync ...". */
const storyLine = (s: LanesPicture["steps"][number]) => `  ${s.n}. ${s.writer}: ${s.what}${s.failed ? " (it failed)" : ""}`;

describe("the picture of writers and a reader in lanes", () => {
  test("its steps are the story's numbered lines, each load says what it returned, and the wrong load is marked after the step the story names", () => {
    const { picture, story } = sharedTemp();
    expect(picture.steps.map((s) => s.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (const step of picture.steps) expect(story.split("\n")).toContain(storyLine(step));
    expect(story).toContain(`after step ${picture.failure.afterStep}, `);
    expect(picture.failure).toMatchObject({ kind: "load", afterStep: 10, short: "the reader's loadCheckpoint threw SyntaxError" });
    expect(picture.loads.map((l) => [l.afterStep, loadLabel(l), !!l.wrong])).toEqual([[0, "old", false], [6, "B's", false], [10, "threw", true]]);
    expect(picture.loads.at(-1)!.error).toBe("SyntaxError");
    expect(picture.writers).toEqual([{ name: "A", saves: '{"step":2,"by":"A"}' }, { name: "B", saves: '{"step":2,"by":"B"}' }]);
    expect(picture.before).toBe('{"step":1}');
  });

  test("process ids, the writers' clock and temp names' random parts show as the story shows them", () => {
    const tmp = `checkpoint.json.tmp-${PIDS[0]}-${CLOCK + 3}-9f8e7d6c5b`;
    const calls = [`A: openSync opens ${tmp} (w)`, `A: writeSync writes 19 bytes to ${tmp}`, `A: renameSync renames ${tmp} to checkpoint.json`];
    const exec = execution(SETUP, calls, [[0, returned({ step: 1 })], [3, returned({ step: 9 })]], { afterStep: 3 });
    const picture = lanesPicture({ setup: SETUP, exec, pids: PIDS, clockMs: CLOCK })!;
    const story = storyOfRun(exec, 1);
    const drawn = JSON.stringify(picture);
    expect(drawn).not.toContain(String(PIDS[0]));
    expect(drawn).not.toContain(String(CLOCK + 3));
    expect(picture.steps[0]!.what).toBe("openSync opens checkpoint.json.tmp-<pid\u00a0of\u00a0A>-<time>-* (w)");
    for (const step of picture.steps) expect(story.split("\n")).toContain(storyLine(step));
    expect(loadLabel(picture.loads.at(-1)!)).toBe("other");
  });

  test("a long run leaves out the steps the story leaves out, numbered as the story numbers them, and keeps the loads at the steps it draws", () => {
    const calls = Array.from({ length: 60 }, (_, i) => `${i % 2 ? "B" : "A"}: writeSync writes 1 byte to checkpoint.json.tmp-${i % 2 ? "b" : "a"}`);
    const exec = execution(SETUP, calls, [[0, returned({ step: 1 })], [10, returned({ step: 1 })], [59, returned({ step: 2, by: "A" })], [60, returned({ step: 3 })]], { afterStep: 60 });
    const picture = lanesPicture({ setup: SETUP, exec, pids: PIDS, clockMs: CLOCK })!;
    const story = storyOfRun(exec, 1);
    const gap = picture.steps.find((s) => s.skipped)!;
    expect(gap).toEqual({ n: 5, skipped: 36 });
    expect(story).toContain(`  … ${gap.skipped} more …`);
    expect(stepsCounted(picture.steps)).toBe(60);
    for (const step of picture.steps.filter((s) => !s.skipped)) expect(story.split("\n")).toContain(storyLine(step));
    expect(picture.loads.map((l) => l.afterStep)).toEqual([0, 59, 60]);
  });

  test("a writer that threw after a load that removed its temp: the writer and the step are marked, and the load says what it removed", () => {
    const tmp = `checkpoint.json.tmp-${PIDS[0]}-1`;
    const calls = [`A: openSync opens ${tmp} (w)`, `A: writeSync writes 19 bytes to ${tmp}`, `A! renameSync renames ${tmp} to checkpoint.json`];
    const removed = { changed: [{ name: `@/work/${tmp}`, removed: true }] };
    const went: RunWent = { kind: "writer-failed", writer: 0, ended: { kind: "call", result: threw("Error", `ENOENT: no such file or directory, rename '${tmp}'`, "ENOENT") } };
    const exec = execution(SETUP, calls, [[0, returned({ step: 1 })], [1, returned({ step: 1 }), removed]], { afterStep: 3, went });
    const picture = lanesPicture({ setup: SETUP, exec, pids: PIDS, clockMs: CLOCK })!;
    const story = storyOfRun(exec, 1);
    expect(picture.failure).toMatchObject({ kind: "writer", afterStep: 3, writer: "A", short: "writer A's atomicCheckpoint threw Error (ENOENT)" });
    expect(picture.steps.at(-1)).toMatchObject({ n: 3, writer: "A", failed: true });
    expect(picture.loads[1]!.changed).toEqual(["removed checkpoint.json.tmp-<pid\u00a0of\u00a0A>-1"]);
    expect(story).toContain(`then the reader's loadCheckpoint ${picture.loads[1]!.changed![0]}`);
    expect(picture.loads.some((l) => l.wrong)).toBe(false);
  });

  test("a load equal to two writers' states names both; with no old checkpoint, null is null", () => {
    const setup: Setup = { old: null, states: [0, [], []] };
    const calls = ["B: renameSync renames checkpoint.json.tmp to checkpoint.json", "A: writeFileSync writes 1 byte to checkpoint.json"];
    const exec = execution(setup, calls, [[0, returned(null)], [1, returned([])], [2, threw("SyntaxError", "Unexpected token")]], { afterStep: 2 });
    const picture = lanesPicture({ setup, exec, pids: PIDS, clockMs: CLOCK })!;
    expect(picture.loads.map(loadLabel)).toEqual(["null", "B's/C's", "threw"]);
    expect(picture.before).toBeNull();
  });

  test("a wrong final state: the final load is drawn after the last step, marked, and says it returned the old state", () => {
    const calls = ["A: writeFileSync writes 19 bytes to checkpoint.json.tmp-a", "B: writeFileSync writes 19 bytes to checkpoint.json.tmp-b"];
    const written = loadAllowed(SETUP).slice(1);
    const went: RunWent = { kind: "reader-saw", final: true, held: { bytes: 10, start: '{"step":1}' }, wrong: loadWrong(returned({ step: 1 }), written)! };
    const exec = execution(SETUP, calls, [[0, returned({ step: 1 })], [2, returned({ step: 1 })]], { afterStep: 2, went });
    exec.loadsSeen!.push({ afterStep: 2, final: true, result: returned({ step: 1 }), allowed: written });
    const picture = lanesPicture({ setup: SETUP, exec, pids: PIDS, clockMs: CLOCK })!;
    expect(picture.loads.at(-1)).toMatchObject({ afterStep: 2, final: true, wrong: true, saw: "state", states: ["old"] });
    expect(picture.loads.filter((l) => l.wrong)).toHaveLength(1);
    const lines = lanesLines(picture, { width: 80, indent: 6, c: pc.createColors(false) });
    expect(lines).toContainEqual(expect.stringMatching(/^ {6}✗ +end +│ │ +✗ old +\(once every writer had returned\)$/));
    const failure = lines.slice(lines.findIndex((l) => l.startsWith("      ✗ once"))).join(" ").replace(/\s+/g, " ");
    expect(failure).toBe(" ✗ once every writer had returned: the reader's loadCheckpoint returned {\"step\":1}");
  });

  test("drawing the picture records nothing as told: the failure's cause is its finding's alone (a writer's throw, not a load the picture judged)", () => {
    const told = nothingTold();
    const { exec } = sharedTemp();
    const finding = runFinding(SETUP, exec, { kind: "explored", order: 3 }, { pids: PIDS, clockMs: CLOCK });
    expect(recordingTold(told, () => lanesPicture({ setup: SETUP, exec, pids: PIDS, clockMs: CLOCK }))).not.toBeNull();
    expect(told).toEqual(nothingTold());
    expect(causeOf(finding).outcome).toBe("loadCheckpoint threw SyntaxError");
    const tmp = `checkpoint.json.tmp-${PIDS[0]}-1`;
    const went: RunWent = { kind: "writer-failed", writer: 0, ended: { kind: "call", result: threw("Error", `ENOENT: no such file or directory, rename '${tmp}'`, "ENOENT") } };
    const writerFailed = execution(SETUP, SHARED_TEMP.slice(0, 3), [[0, returned({ step: 1 })], [1, returned(null)]], { afterStep: 3, went });
    recordingTold(told, () => lanesPicture({ setup: SETUP, exec: writerFailed, pids: PIDS, clockMs: CLOCK }));
    expect(told).toEqual(nothingTold());
    expect(causeOf(runFinding(SETUP, writerFailed, { kind: "random" }, { pids: PIDS, clockMs: CLOCK }))).toEqual({
      errors: [{ name: "Error", code: "ENOENT", message: "ENOENT: no such file or directory, rename 'checkpoint.json.tmp-<pid\u00a0of\u00a0A>-1'" }],
      outcome: "atomicCheckpoint threw Error (ENOENT)",
    });
  });

  test("no picture when the record cannot say for sure: the last load was judged right, or an allowed state is one whose save the record does not say; and never a throw", () => {
    const { exec } = sharedTemp();
    const right = { ...exec, loadsSeen: exec.loadsSeen!.slice(0, 2), problem: { ...exec.problem!, afterStep: 6 } };
    expect(lanesPicture({ setup: SETUP, exec: right, pids: PIDS, clockMs: CLOCK })).toBeNull();
    const strange = { ...exec, loadsSeen: exec.loadsSeen!.map((l) => ({ ...l, allowed: l.allowed.map(({ label, state }) => ({ label, state })) })) };
    expect(lanesPicture({ setup: SETUP, exec: strange, pids: PIDS, clockMs: CLOCK })).toBeNull();
    expect(lanesPicture({ setup: SETUP, exec: { ...exec, steps: null as never }, pids: PIDS, clockMs: CLOCK })).toBeNull();
  });
});

describe("the lanes picture in the terminal", () => {
  const colours = [false, true].map((on) => pc.createColors(on));

  test.each([60, 80, 120])("at %i columns, with and without colour: at most 12 lines, none wider than the terminal, the failure's row marked ✗ with its step number, and the last line says after which step", (width) => {
    const { picture } = sharedTemp();
    for (const c of colours) {
      const lines = lanesLines(picture, { width, indent: 6, c });
      expect(lines.length).toBeGreaterThan(4);
      expect(lines.length).toBeLessThanOrEqual(12);
      for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(width);
      const plain = lines.map((l) => l.replace(/\u001b\[[0-9;]*m/g, ""));
      expect(plain.filter((l) => /^ *✗ +\d/.test(l))).toHaveLength(1);
      expect(plain.find((l) => /^ *✗ +\d/.test(l))).toMatch(/✗ +10 +A │ +✗ threw +writeFileSync/);
      const failure = plain.slice(plain.findIndex((l) => l.startsWith("      ✗ after"))).join(" ").replace(/\s+/g, " ");
      expect(failure).toBe(" ✗ after step 10: the reader's loadCheckpoint threw SyntaxError");
      expect(plain.some((l) => l.includes("→ B's"))).toBe(true);
      if (c === colours[0]) expect(lines).toEqual(plain);
    }
  });

  test("a long run shows the steps just before the failure, counts those before them, and still fits 12 lines at 60 columns", () => {
    const calls = Array.from({ length: 60 }, (_, i) => `${i % 2 ? "B" : "A"}: writeSync writes 1 byte to checkpoint.json.tmp-${i % 2 ? "b" : "a"}`);
    const loads: [number, CallResult][] = [[0, returned({ step: 1 })], ...Array.from({ length: 59 }, (_, i): [number, CallResult] => [i + 1, returned({ step: 1 })]), [60, returned({ step: 3 })]];
    const exec = execution(SETUP, calls, loads, { afterStep: 60 });
    const picture = lanesPicture({ setup: SETUP, exec, pids: PIDS, clockMs: CLOCK })!;
    const lines = lanesLines(picture, { width: 60, indent: 6, c: colours[0]! });
    expect(lines.length).toBeLessThanOrEqual(12);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(60);
    const counted = /… +(\d+) steps before/.exec(lines.join("\n"));
    const numbers = lines.flatMap((l) => /^ {6}[ ✗] +(\d+) /.exec(l)?.[1] ?? []).map(Number);
    expect(Number(counted![1]) + numbers.length).toBe(60);
    expect(numbers.at(-1)).toBe(60);
  });
});
