// Small words of the stories, each true: a JSON.parse position said to count characters (the
// grader's own stories count bytes); the count of steps a long story leaves out.
import { describe, expect, test } from "vitest";
import { elideSteps } from "../report/run-story.js";
import { describeResult } from "../grading/calls.js";
import { crashWindow, placeCrash } from "../crash/task-crash.js";
import { crashPlaceWords, killedMark } from "../report/task-words.js";
import type { Trace } from "../crash/model.js";
import { summarizeValue } from "../sandbox/runtime/target/call.js";
import { showPaths } from "../checks/stretch-diff/divergence.js";

describe("a call's outcome in words", () => {
  test("a SyntaxError at a JSON position says that position counts characters, not bytes; other errors say nothing of it", () => {
    const atPosition = describeResult("loadCheckpoint", { status: "threw", error: { name: "SyntaxError", message: "Unexpected token ] in JSON at position 41669", notImplemented: false } });
    expect(atPosition).toBe("loadCheckpoint threw SyntaxError: Unexpected token ] in JSON at position 41669 (JSON.parse counts that position in characters, not bytes)");
    const atEnd = describeResult("loadCheckpoint", { status: "threw", error: { name: "SyntaxError", message: "Unexpected end of JSON input", notImplemented: false } });
    expect(atEnd).toBe("loadCheckpoint threw SyntaxError: Unexpected end of JSON input");
    const other = describeResult("loadCheckpoint", { status: "threw", error: { name: "Error", message: "bad position 3 of the queue", code: "EFOO", notImplemented: false } });
    expect(other).toBe("loadCheckpoint threw Error (EFOO): bad position 3 of the queue");
  });
});

describe("a long list of steps", () => {
  test("leaves out the steps between the first 4 and the last 20, and counts exactly those; never leaves out just one", () => {
    const steps = (n: number) => Array.from({ length: n }, (_, i) => `  ${i + 1}. A: step`);
    expect(elideSteps(steps(24))).toEqual(steps(24));
    expect(elideSteps(steps(25))).toEqual(steps(25));
    const shown = elideSteps(steps(30));
    expect(shown).toHaveLength(25);
    expect(shown[4]).toBe("  … 6 more …");
    expect([shown[3], shown[5]]).toEqual(["  4. A: step", "  11. A: step"]);
  });
});

describe("a returned value", () => {
  test("is previewed with its keys in the order the code gave them, and digested the same whatever that order", () => {
    const a = summarizeValue({ step: 1, paths: [] });
    const b = summarizeValue({ paths: [], step: 1 });
    expect([a.preview, b.preview]).toEqual(['{"step":1,"paths":[]}', '{"paths":[],"step":1}']);
    expect(a.digest).toBe(b.digest);
  });
});

/** Where a crash before entry `at` landed: the window it opens, the story's words, and the runs picture's mark, each from the one place. */
function locateCrash(trace: Trace, at: number, options?: { checkpointRepo?: string }) {
  const place = placeCrash(trace, at, options);
  return { window: crashWindow(place), words: crashPlaceWords(place), killed: killedMark(place) };
}

describe("where a crash landed, in the task's steps", () => {
  const effect = (step: number, phase: "enter" | "done") => ({ kind: "effect" as const, step, pid: 4002, phase, input: "x" });
  const mark = (label: string) => ({ kind: "mark" as const, label });
  test("a run that resumes at step 10 is killed during its recovery before step 10, not 'before step 1'; a fresh run before step 1", () => {
    const resumed: Trace = { truncated: false, entries: [mark("call:runTask"), mark("x"), effect(10, "enter"), effect(10, "done"), mark("return:runTask")] };
    expect(locateCrash(resumed, 1).words).toBe("during its recovery, before its first step, step 10");
    const fresh: Trace = { truncated: false, entries: [mark("call:runTask"), effect(1, "enter"), effect(1, "done")] };
    expect(locateCrash(fresh, 1).words).toBe("before step 1 started");
    const nothing: Trace = { truncated: false, entries: [mark("call:runTask"), mark("return:runTask")] };
    expect(locateCrash(nothing, 1).words).toBe("before it ran any step");
    expect(locateCrash(resumed, 4).words).toBe("at the boundary after step 10");
  });

  test("where the runs picture marks the kill is given with the words, the same place: the step and before, inside, in the window after or after it", () => {
    const trace: Trace = { truncated: false, entries: [mark("call:runTask"), effect(1, "enter"), effect(1, "done"), mark("x"), effect(2, "enter")] };
    const at = (n: number) => locateCrash(trace, n).killed;
    expect(at(1)).toEqual({ step: 1, at: "before", words: "before step 1 started" });
    expect(at(2)).toEqual({ step: 1, at: "in-step", words: "inside runStep(1), before its side effect" });
    expect(at(3)).toEqual({ step: 1, at: "in-window", words: "after step 1's side effect, before the boundary after it" });
    expect(at(4)).toEqual({ step: 1, at: "after", words: "at the boundary after step 1" });
    expect(locateCrash({ truncated: false, entries: [mark("call:runTask"), mark("return:runTask")] }, 1).killed).toEqual({ step: 0, at: "after", words: "before it ran any step" });
  });
});

describe("a git-backed runner's window after a step", () => {
  const effect = (step: number, phase: "enter" | "done") => ({ kind: "effect" as const, step, pid: 4002, phase, input: "x" });
  const mark = (label: string) => ({ kind: "mark" as const, label });
  /** A git command's mark and the write of one file under work/.git (as sandbox/interposition/external/git-ops.ts records one). */
  const gitWrites = (command: string, file: string, text: string, fd: number) => {
    const api = `exec:${command}`;
    return [mark(api), { kind: "open" as const, path: `@/work/.git/${file}`, flags: "w", fd, api }, { kind: "write" as const, fd, bytes: Buffer.from(text), position: null, api }, { kind: "close" as const, fd, api }];
  };
  const run = (...between: Trace["entries"]): Trace => ({ truncated: false, entries: [mark("call:runTask"), effect(1, "enter"), effect(1, "done"), ...between, mark("x"), effect(2, "enter")] });
  const repo = { checkpointRepo: "work" };

  test("ends once a git command moved HEAD's branch (a crash after it allows no second run), and not before: inside the command, or without the repository named", () => {
    const trace = run(...gitWrites("git commit -m step1", "refs/heads/main", "ab12\n", 7));
    // 3: the commit's mark; 4-6: its open, write and close; 7: the runner's own work after it.
    expect(locateCrash(trace, 3, repo)).toMatchObject({ window: 1, killed: { at: "in-window" } });
    expect(locateCrash(trace, 5, repo)).toMatchObject({ window: 1 });
    expect(locateCrash(trace, 7, repo)).toEqual({ window: 0, words: "after step 1's side effect and its commit", killed: { step: 1, at: "after", words: "after step 1's side effect and its commit" } });
    expect(locateCrash(trace, 7)).toMatchObject({ window: 1, words: "after step 1's side effect, before the boundary after it" });
  });

  test("follows HEAD to the branch it names, and a detached HEAD; another branch moving, or another repository's, leaves the window open", () => {
    const ownBranch = [...gitWrites("git checkout -b work", "HEAD", "ref: refs/heads/work\n", 5)];
    const onWork = run(...gitWrites("git commit -m step1", "refs/heads/work", "ab12\n", 7));
    onWork.entries.splice(1, 0, ...ownBranch);
    expect(locateCrash(onWork, onWork.entries.length - 2, repo).window).toBe(0);
    const mainWhileOnWork = run(...gitWrites("git branch -f main", "refs/heads/main", "ab12\n", 7));
    mainWhileOnWork.entries.splice(1, 0, ...ownBranch);
    expect(locateCrash(mainWhileOnWork, mainWhileOnWork.entries.length - 2, repo).window).toBe(1);
    const detached = run(...gitWrites("git commit -m step1", "HEAD", "ab12\n", 7));
    expect(locateCrash(detached, detached.entries.length - 2, repo).window).toBe(0);
    const otherRepo = run(...gitWrites("git commit -m step1", "refs/heads/main", "ab12\n", 7));
    expect(locateCrash(otherRepo, otherRepo.entries.length - 2, { checkpointRepo: "elsewhere" }).window).toBe(1);
  });
});

describe("paths where two states differ", () => {
  test("the empty path is named as a path (the whole state), never as an empty list", () => {
    expect(showPaths([[]])).toBe("[] (the empty path: the whole state)");
    expect(showPaths([["notes", 3], []])).toBe('[] (the empty path: the whole state), ["notes",3]');
    expect(showPaths([])).toBe("none");
  });
});
