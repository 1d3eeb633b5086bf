// The class dashboard's grouping of failures by kind, on stories and pictures of the shapes real
// grades write: two students with one bug get one kind whatever numbers, states, temp names and
// code style their grades show; two bugs get two kinds even when their outcome reads the same.
import { describe, expect, test } from "vitest";
import type { CallsPicture, LanesPicture, Picture, RunsPicture } from "../contract/picture.js";
import type { LanesStep } from "../contract/picture-lanes.js";
import type { CheckReport } from "../report/report.js";
import { failureKind } from "../tools/batch/dashboard/failure-kind.js";
import { opWords } from "../tools/batch/dashboard/picture-place.js";
import { outcomeOf, plainWords, verdictLine } from "../tools/batch/dashboard/story-words.js";

/** A failed check's kind from its story and picture. */
function kindOf(message: string, picture?: Picture, status: CheckReport["status"] = "failed") {
  return failureKind({ status, message, ...(picture ? { picture } : {}) });
}

/**
 * A crash picture: `ops` by their labels (a write with its bytes as "label|bytes"), each with the
 * kind and file the grader gives it as data (labelled as opLabel labels them, in these tests the
 * label's call word after ": " or its API's, and its last quoted file), cut after `afterOps`,
 * leaving `after` (name: holds).
 */
function calls(ops: string[], cut: CallsPicture["cut"], after: Record<string, CallsPicture["after"][number]["holds"]>): CallsPicture {
  return {
    kind: "calls",
    call: 'atomicCheckpoint(path, {"step":2})',
    ops: ops.map((o) => {
      const [what, bytes] = o.split("|") as [string, string | undefined];
      return { what, ...FACTS[what]!, ...(bytes ? { bytes: Number(bytes) } : {}) };
    }),
    cut,
    after: Object.entries(after).map(([name, holds]) => ({ name, bytes: holds === "empty" ? 0 : 10, holds })),
  };
}

/** The kind and file of each label these tests draw, as the grader gives them beside the label (crash/describe.ts's opFacts). */
const FACTS: Record<string, { kind: string; touched: string }> = {
  ["`cp checkpoint.json.*.tmp checkpoint.json`: open \"checkpoint.json\""]: { kind: "open", touched: "checkpoint.json" },
  ["`cp checkpoint.json.*.tmp checkpoint.json`: write \"checkpoint.json\""]: { kind: "write", touched: "checkpoint.json" },
  ["closeSync(\"checkpoint.json\")"]: { kind: "close", touched: "checkpoint.json" },
  ["copyFileSync(\"checkpoint.json\"): ftruncate"]: { kind: "ftruncate", touched: "checkpoint.json" },
  ["copyFileSync(\"checkpoint.json\"): open"]: { kind: "open", touched: "checkpoint.json" },
  ["copyFileSync(\"checkpoint.json\"): write"]: { kind: "write", touched: "checkpoint.json" },
  ["openSync(\"checkpoint.json\")"]: { kind: "open", touched: "checkpoint.json" },
  ["openSync(\"x.tmp\")"]: { kind: "open", touched: "x.tmp" },
  ["renameSync(\"a.tmp\", \"checkpoint.json\")"]: { kind: "rename", touched: "checkpoint.json" },
  ["renameSync(\"checkpoint.json.tmp\", \"checkpoint.json\")"]: { kind: "rename", touched: "checkpoint.json" },
  ["unlinkSync(\"checkpoint.json\")"]: { kind: "unlink", touched: "checkpoint.json" },
  ["writeFileSync(\"checkpoint.json\")"]: { kind: "write", touched: "checkpoint.json" },
  ["writeFileSync(\"checkpoint.json\"): close"]: { kind: "close", touched: "checkpoint.json" },
  ["writeFileSync(\"checkpoint.json\"): open"]: { kind: "open", touched: "checkpoint.json" },
  ["writeFileSync(\"checkpoint.json.*.tmp\")"]: { kind: "write", touched: "checkpoint.json.*.tmp" },
  ["writeFileSync(\"checkpoint.json.*.tmp\"): close"]: { kind: "close", touched: "checkpoint.json.*.tmp" },
  ["writeFileSync(\"checkpoint.json.*.tmp\"): open"]: { kind: "open", touched: "checkpoint.json.*.tmp" },
  ["writeFileSync(\"checkpoint.json.tmp\")"]: { kind: "write", touched: "checkpoint.json.tmp" },
  ["writeFileSync(\"checkpoint.json.tmp\"): close"]: { kind: "close", touched: "checkpoint.json.tmp" },
  ["writeFileSync(\"checkpoint.json.tmp\"): open"]: { kind: "open", touched: "checkpoint.json.tmp" },
  ["writeSync(\"checkpoint.json\")"]: { kind: "write", touched: "checkpoint.json" },
  ["writeSync(\"x.tmp\")"]: { kind: "write", touched: "x.tmp" },
};

const CRASH_STORY = (killed: string, disk: string, load: string) =>
  `With the old checkpoint {"step":1} on disk, atomicCheckpoint(path, {"step":2}) was killed ${killed}.\nOn disk after the crash: ${disk}.\nOn restart, loadCheckpoint ${load}; expected the old state {"step":1} or the new state {"step":2}.`;

describe("a story's words", () => {
  test("plain words hide a shortened value, quoted strings, numbers, lists of numbers and lists of paths", () => {
    expect(plainWords('Process 1 wrote the old checkpoint {"kind":"large","ite… (an object of 9.8 KiB).')).toBe("Process # wrote the old checkpoint … (an object).");
    expect(plainWords('killed after writeSync(".checkpoint.json.8f3a91c2.tmp"): 51809 of 103618 bytes')).toBe('killed after writeSync("…"): # of # bytes');
    expect(plainWords("step 1 ran 3 times (in sessions 1, 2, 3 and 4)")).toBe("step # ran # times (in sessions #)");
    expect(plainWords('it left out ["notes",0,"text"], ["chain"] and ["x"]')).toBe("it left out […]");
  });

  test("the verdict is the line that says what was expected, else the last with an outcome, never a closing question", () => {
    const story = "With the old checkpoint on disk, atomicCheckpoint ran on a disk that said no.\natomicCheckpoint threw Error (ENOSPC): no space.\nWith the disk fine again: atomicCheckpoint(path, 3) threw Error: an earlier save failed.\nA full disk fails every write: what has the call returned?";
    expect(verdictLine(story)).toBe("With the disk fine again: atomicCheckpoint(path, 3) threw Error: an earlier save failed.");
    expect(verdictLine(CRASH_STORY("x", "no files", "returned null"))).toMatch(/^On restart, loadCheckpoint returned null; expected/);
  });

  test("two ways the same bug was told (another lead-in, temp name, state and step) have one outcome: the call, the error's name and code", () => {
    const counter = `The next process (with the same process id) loaded, wrote {"step":3} and loaded it back, then tried to write again the state it was writing when it crashed: atomicCheckpoint(path, {"step":2}) threw Error (EEXIST): EEXIST: file already exists, open '.checkpoint.json.*.1.tmp'.`;
    const fixed = `The next process (with the same process id) loaded, then tried to write a new state: atomicCheckpoint(path, {"step":3}) threw Error (EEXIST): EEXIST: file already exists, open 'checkpoint.json.tmp'.`;
    expect(outcomeOf(counter)).toBe("atomicCheckpoint threw Error (EEXIST)");
    expect(outcomeOf(fixed)).toBe(outcomeOf(counter));
    // A built-in error is its name: its message holds JSON positions.
    expect(outcomeOf("loadCheckpoint threw SyntaxError: Unexpected token at position 41669; expected the old state")).toBe("loadCheckpoint threw SyntaxError");
    expect(outcomeOf("loadCheckpoint threw SyntaxError: Unterminated string in JSON at position 12; expected it")).toBe("loadCheckpoint threw SyntaxError");
  });

  test("different outcomes stay apart: what was returned by its shape, and an error of the code's own by its words", () => {
    const outcomes = [
      "loadCheckpoint returned null; expected {}",
      "loadCheckpoint returned undefined; expected null",
      'loadCheckpoint returned {"step":1}; expected the new state',
      "loadCheckpoint returned [{}]; expected the last state",
      "atomicCheckpoint(path, null) threw Error (EXDEV): EXDEV: cross-device link",
      "atomicCheckpoint(path, 3) threw Error: an earlier save failed: look at checkpoint.json.failed",
      "Process 3 then called loadCheckpoint, which threw TypeError: x is not a function; expected the old one",
    ].map(outcomeOf);
    expect(outcomes).toEqual([
      "loadCheckpoint returned null",
      "loadCheckpoint returned undefined",
      "loadCheckpoint returned {…}",
      "loadCheckpoint returned […]",
      "atomicCheckpoint threw Error (EXDEV)",
      "atomicCheckpoint threw Error: an earlier save failed: look at checkpoint.json.failed",
      "loadCheckpoint threw TypeError",
    ]);
  });

  test("who had the outcome: the function called (not its argument), the reader or a writer, a command run", () => {
    expect(outcomeOf("loadHistory(historyDir) for prompt A returned 10 states, and its element 1 is not the state after step 2.")).toBe("loadHistory returned # states, and its element # is not the state after step #");
    expect(outcomeOf("after step 10, checkpoint.json held 55 bytes, and the reader's loadCheckpoint threw SyntaxError: bad; expected A's")).toBe("the reader's loadCheckpoint threw SyntaxError");
    expect(outcomeOf("after step 5, writer B's atomicCheckpoint threw Error (ENOENT): no such file")).toBe("a writer's atomicCheckpoint threw Error (ENOENT)");
    expect(outcomeOf('session 1: `session --checkpoint task-checkpoint.json --max-steps 4` printed {"status":"paused","nextStep":4}; expected 5')).toBe("`session …` printed {…}");
  });

  test("a verdict that names no outcome is judged by the words after its lead-in, up to the rule after them", () => {
    const twice = (step: number, runs: string) => kindOf(`Run 1 was killed at the boundary after step ${step}.\nRun 2, a new process, then ran runTask to the end: step ${step} ran ${runs.split(",").length} times (in runs ${runs}): no crash landed between its side effect and its checkpoint, so it must run exactly once.`);
    expect(twice(1, "1, 2").outcome).toBe("step # ran # times (in runs #): no crash landed between its side effect and its checkpoint, so it must run exactly once");
    expect(twice(1, "1, 2").key).toBe(twice(10, "1, 2, 3").key);
    expect(kindOf("Process 1 ran runTask and was killed as it entered runStep(6). Process 2 ran runTask again: step 6 never ran (the record holds steps 1, 2). Each step must run.").outcome).toBe("step # never ran (the record holds steps #)");
    expect(kindOf("Run 2 then ran runTask to the end: step 3 ran (in run 2) with the state after step 1; it must start from the state after step 2.").outcome).toBe("step # ran (in run #) with the state after step #");
    // One commit or twenty: a number's word is compared in the singular.
    const commits = (n: number) => kindOf(`runTask ran the 10-step task once, in an empty folder: the branch holds ${n} commit${n === 1 ? "" : "s"} for 10 steps: the first commit is "step ${n}", which names step ${n}; step 1 has no commit of its own.`);
    expect(commits(1).key).toBe(commits(20).key);
  });
});

describe("a failure's kind", () => {
  const emptied = { "checkpoint.json": "empty" } as const;
  const writeFileInPlace = calls(['writeFileSync("checkpoint.json"): open', 'writeFileSync("checkpoint.json")|10', 'writeFileSync("checkpoint.json"): close'], { afterOps: 1, how: "killed" }, emptied);
  const openInPlace = calls(['openSync("checkpoint.json")', 'writeSync("checkpoint.json")|10', 'closeSync("checkpoint.json")'], { afterOps: 1, how: "killed" }, emptied);
  // copyFileSync opens the checkpoint as it is, then truncates it.
  const copied = calls(['writeFileSync("checkpoint.json.tmp"): open', 'writeFileSync("checkpoint.json.tmp")|10', 'writeFileSync("checkpoint.json.tmp"): close', 'copyFileSync("checkpoint.json"): open', 'copyFileSync("checkpoint.json"): ftruncate', 'copyFileSync("checkpoint.json"): write|10'], { afterOps: 5, how: "killed" }, { "checkpoint.json": "empty", "checkpoint.json.tmp": "new" });
  // `cp` killed inside its write before any byte: the same place as right after its open.
  const cp = calls(['writeFileSync("checkpoint.json.*.tmp"): open', 'writeFileSync("checkpoint.json.*.tmp")|10', 'writeFileSync("checkpoint.json.*.tmp"): close', '`cp checkpoint.json.*.tmp checkpoint.json`: open "checkpoint.json"', '`cp checkpoint.json.*.tmp checkpoint.json`: write "checkpoint.json"|10'], { afterOps: 4, written: 0, how: "killed" }, { "checkpoint.json": "empty", "checkpoint.json.*.tmp": "new" });
  const threw = CRASH_STORY('right after it opened the file (flags "w")', "checkpoint.json (0 bytes)", "threw SyntaxError: Unexpected end of JSON input");

  test("a crash is placed by the kind of call it followed and the file it touched, whatever the API (an open or a truncation that empties the checkpoint is one place), and by what the checkpoint held after", () => {
    const kinds = [writeFileInPlace, openInPlace, copied, cp].map((p) => kindOf(threw, p));
    expect(kinds[0]).toEqual({ key: expect.any(String), outcome: "loadCheckpoint threw SyntaxError", place: "killed right after checkpoint.json was emptied; checkpoint.json left empty" });
    expect(new Set(kinds.map((k) => k.key)).size).toBe(1);
  });

  test("the same outcome at another place is another kind: a temp opened and the checkpoint left old, the checkpoint unlinked", () => {
    const tempOpened = calls(['writeFileSync("checkpoint.json.tmp"): open', 'writeFileSync("checkpoint.json.tmp")|10'], { afterOps: 1, how: "killed" }, { "checkpoint.json": "old", "checkpoint.json.tmp": "empty" });
    const unlinked = calls(['writeFileSync("checkpoint.json.tmp"): open', 'unlinkSync("checkpoint.json")', 'renameSync("checkpoint.json.tmp", "checkpoint.json")'], { afterOps: 2, how: "killed" }, { "checkpoint.json.tmp": "new" });
    const torn = calls(['openSync("checkpoint.json")', 'writeSync("checkpoint.json")|10'], { afterOps: 1, written: 4, how: "killed" }, { "checkpoint.json": "torn" });
    const places = [writeFileInPlace, tempOpened, unlinked, torn].map((p) => kindOf(threw, p).place);
    expect(places).toEqual([
      "killed right after checkpoint.json was emptied; checkpoint.json left empty",
      "killed right after open of another file; checkpoint.json left old",
      "killed right after unlink of checkpoint.json; checkpoint.json gone",
      "killed inside write to checkpoint.json; checkpoint.json left torn",
    ]);
    expect(kindOf(threw, calls(['openSync("checkpoint.json")'], { afterOps: 0, how: "killed" }, { "checkpoint.json": "old" })).place).toBe("killed before its first file-system call; checkpoint.json left old");
  });

  test("a call is placed by its kind and the file it touched, as data: a rename by the file it renamed onto, the checkpoint's folder as the folder; its label is not read", () => {
    const op = (kind: string, touched: string) => opWords({ what: "any label at all", kind, touched });
    expect([op("rename", "checkpoint.json"), op("fsync", "the folder"), op("open", "work"), op("unlink", ".x.tmp"), op("ftruncate", "checkpoint.json"), op("close", "b")]).toEqual([
      "rename of checkpoint.json",
      "fsync of the folder",
      "open of the folder",
      "unlink of another file",
      "ftruncate of checkpoint.json",
      "close of another file",
    ]);
    expect(opWords({ what: 'renameSync("a", "checkpoint.json")' })).toBe("a call");
  });

  test("a power cut is placed by the step its picture says the write is missing, whatever the story's words; a fault by the call the disk refused", () => {
    const cut = (lead: string, missing?: "data" | "folder") => {
      const picture = calls(['renameSync("a.tmp", "checkpoint.json")'], { afterOps: 1, how: "power cut", ...(missing ? { missing } : {}) }, { "checkpoint.json": "empty" });
      return kindOf(`${lead}\nOn restart, loadCheckpoint threw SyntaxError: x; expected it.`, picture);
    };
    expect(cut('The data of ".checkpoint.json.*.*.tmp" was never fsynced before the rename.', "data").place).toBe("power cut: the renamed file's data was never fsynced before the rename; checkpoint.json left empty");
    expect(cut('The data of "ckpt-17.tmp" was never fsynced before the rename.', "data").key).toBe(cut("Any other words at all.", "data").key);
    expect(cut('The folder was not fsynced after the rename onto "checkpoint.json".', "folder").key).not.toBe(cut('The data of "x" was never fsynced before the rename.', "data").key);
    // With no step missing, by the call it followed, as a kill is.
    expect(cut("With the old checkpoint on disk, atomicCheckpoint was interrupted by a power cut.").place).toBe("power cut right after rename of checkpoint.json; checkpoint.json left empty");
    const fault = calls(['openSync("x.tmp")', 'writeSync("x.tmp")|10'], { afterOps: 1, written: 1, how: "fault", fault: "short write" }, { "checkpoint.json": "torn" });
    expect(kindOf("Then loadCheckpoint threw SyntaxError: x; expected the new state", fault).place).toBe("short write at write to another file; checkpoint.json left torn");
  });

  test("runs are placed by where the last kill fell, not at which step nor after how many kills", () => {
    const runs = (kills: Array<{ step: number; at: "before" | "in-step" | "in-window" | "after" }>): RunsPicture => ({ kind: "runs", unit: "run", steps: 10, runs: [...kills.map((k) => ({ cells: [], killed: { ...k, words: "" } })), { cells: [] }] });
    const story = "Run 3 then ran runTask to the end: step 3 ran 2 times (in runs 1, 2): no crash landed between its side effect and its checkpoint, so it must run exactly once.";
    expect(kindOf(story, runs([{ step: 4, at: "in-window" }, { step: 6, at: "after" }])).place).toBe("killed after a step's side effect");
    expect(kindOf(story, runs([{ step: 4, at: "in-window" }, { step: 6, at: "after" }])).key).toBe(kindOf(story, runs([{ step: 1, at: "after" }])).key);
    expect(kindOf(story, runs([{ step: 1, at: "in-window" }])).key).not.toBe(kindOf(story, runs([{ step: 1, at: "after" }])).key);
  });

  test("writers are placed by what went wrong and the call it followed, not by the writers' names", () => {
    // A step's words, and the same call as data: what the place is made from.
    const renamed = { kind: "write", touched: "checkpoint.json", since: "renamed since" as const };
    const lanes = (writer: string, what: string, did: LanesStep["did"] = renamed): LanesPicture => ({
      kind: "lanes",
      writers: [{ name: "A", saves: "0" }, { name: "B", saves: "[]" }],
      before: null,
      steps: [{ n: 1, writer, what, did }],
      loads: [{ afterStep: 1, saw: "threw", error: "SyntaxError", wrong: true }],
      failure: { kind: "load", afterStep: 1, short: "the reader's loadCheckpoint threw SyntaxError", text: "" },
    });
    const story = (w: string) => `after step 1, the reader's loadCheckpoint threw SyntaxError: at 19; expected null or writer ${w}'s 0.`;
    const a = kindOf(story("A"), lanes("A", "writeFileSync writes 19 bytes to checkpoint.json (opened as checkpoint.json.tmp, renamed since)"));
    expect(a.place).toBe("a load went wrong after a write to checkpoint.json (renamed since)");
    expect(kindOf(story("B"), lanes("B", "writeFileSync writes 2 bytes to checkpoint.json (opened as checkpoint.json.tmp, renamed since)")).key).toBe(a.key);
    expect(kindOf(story("A"), lanes("A", "writeFileSync writes 19 bytes to checkpoint.json", { kind: "write", touched: "checkpoint.json" })).key).not.toBe(a.key);
    // The words are not read: the same data under other words is the same place.
    expect(kindOf(story("A"), lanes("A", "anything at all")).key).toBe(a.key);
  });

  test("a check that waits is one kind per check it waits on, read from the checks it waits on, whatever its message says; one the grader could not run, per first line of its error", () => {
    const waiting = (waitsOn: string[], message: string) => failureKind({ status: "blocked", message, waitsOn });
    expect(waiting(["phase1.round-trip"], "Scored only once phase1.round-trip passes; fix that first.\nIt also fails on its own:\nanything").outcome).toBe("waits on phase1.round-trip");
    expect(waiting(["phase1.crash-safety", "phase1.stale-temp"], "Scored only once phase1.crash-safety and phase1.stale-temp pass; fix those first.").outcome).toBe("waits on phase1.crash-safety and phase1.stale-temp");
    expect(waiting(["phase1.round-trip"], "Scored only once phase1.round-trip passes; fix that first.").key).toBe(waiting(["phase1.round-trip"], "Scored only once phase1.round-trip passes; fix that first.\nIt also fails on its own:\nother").key);
    // Reworded, the sentence groups as before: the kind is made from the data, never from the words.
    expect(waiting(["phase1.round-trip"], "Waits for phase1.round-trip.").key).toBe(waiting(["phase1.round-trip"], "Scored only once phase1.round-trip passes; fix that first.").key);
    expect(kindOf("the grader could not run this check: ReferenceError: x is not defined\n    at f (file.ts:12:3)", undefined, "error").outcome).toBe("the grader could not run it: ReferenceError: x is not defined");
    expect(kindOf("", undefined, "failed").outcome).toBe("no story told");
  });
});
