// The class dashboard's grouping of failures by kind, on causes and pictures of the shapes real
// grades write: two students with one bug get one kind whatever numbers, states, temp names and
// code style their grades show; two bugs get two kinds even when their outcome reads the same.
// A kind is made from data (the cause's outcome, the picture's), never from a story's words.
import { describe, expect, test } from "vitest";
import type { CallsPicture, LanesPicture, Picture, RunsPicture } from "../contract/picture.js";
import type { LanesStep } from "../contract/picture-lanes.js";
import type { CheckReport } from "../report/report.js";
import { failureKind } from "../tools/batch/dashboard/failure-kind.js";
import { opWords } from "../tools/batch/dashboard/picture-place.js";

/** A failed check's kind from the outcome its cause holds and its picture (its story is any words at all). */
function kindOf(outcome: string, picture?: Picture, status: CheckReport["status"] = "failed") {
  return failureKind({ status, message: `a story of ${Math.random()}`, cause: { outcome }, ...(picture ? { picture } : {}) });
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

describe("a failure's kind", () => {
  const emptied = { "checkpoint.json": "empty" } as const;
  const writeFileInPlace = calls(['writeFileSync("checkpoint.json"): open', 'writeFileSync("checkpoint.json")|10', 'writeFileSync("checkpoint.json"): close'], { afterOps: 1, how: "killed" }, emptied);
  const openInPlace = calls(['openSync("checkpoint.json")', 'writeSync("checkpoint.json")|10', 'closeSync("checkpoint.json")'], { afterOps: 1, how: "killed" }, emptied);
  // copyFileSync opens the checkpoint as it is, then truncates it.
  const copied = calls(['writeFileSync("checkpoint.json.tmp"): open', 'writeFileSync("checkpoint.json.tmp")|10', 'writeFileSync("checkpoint.json.tmp"): close', 'copyFileSync("checkpoint.json"): open', 'copyFileSync("checkpoint.json"): ftruncate', 'copyFileSync("checkpoint.json"): write|10'], { afterOps: 5, how: "killed" }, { "checkpoint.json": "empty", "checkpoint.json.tmp": "new" });
  // `cp` killed inside its write before any byte: the same place as right after its open.
  const cp = calls(['writeFileSync("checkpoint.json.*.tmp"): open', 'writeFileSync("checkpoint.json.*.tmp")|10', 'writeFileSync("checkpoint.json.*.tmp"): close', '`cp checkpoint.json.*.tmp checkpoint.json`: open "checkpoint.json"', '`cp checkpoint.json.*.tmp checkpoint.json`: write "checkpoint.json"|10'], { afterOps: 4, written: 0, how: "killed" }, { "checkpoint.json": "empty", "checkpoint.json.*.tmp": "new" });
  const threw = "loadCheckpoint threw SyntaxError";

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
      return failureKind({ status: "failed", message: lead, cause: { outcome: "loadCheckpoint threw SyntaxError" }, picture });
    };
    expect(cut('The data of ".checkpoint.json.*.*.tmp" was never fsynced before the rename.', "data").place).toBe("power cut: the renamed file's data was never fsynced before the rename; checkpoint.json left empty");
    expect(cut('The data of "ckpt-17.tmp" was never fsynced before the rename.', "data").key).toBe(cut("Any other words at all.", "data").key);
    expect(cut('The folder was not fsynced after the rename onto "checkpoint.json".', "folder").key).not.toBe(cut('The data of "x" was never fsynced before the rename.', "data").key);
    // With no step missing, by the call it followed, as a kill is.
    expect(cut("With the old checkpoint on disk, atomicCheckpoint was interrupted by a power cut.").place).toBe("power cut right after rename of checkpoint.json; checkpoint.json left empty");
    const fault = calls(['openSync("x.tmp")', 'writeSync("x.tmp")|10'], { afterOps: 1, written: 1, how: "fault", fault: "short write" }, { "checkpoint.json": "torn" });
    expect(kindOf("loadCheckpoint threw SyntaxError", fault).place).toBe("short write at write to another file; checkpoint.json left torn");
  });

  test("runs are placed by where the last kill fell, not at which step nor after how many kills", () => {
    const runs = (kills: Array<{ step: number; at: "before" | "in-step" | "in-window" | "after" }>): RunsPicture => ({ kind: "runs", unit: "run", steps: 10, runs: [...kills.map((k) => ({ cells: [], killed: { ...k, words: "" } })), { cells: [] }] });
    const story = "a step ran again with no crash between its side effect and its checkpoint";
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
    const story = (_writer: string) => "loadCheckpoint threw SyntaxError";
    const a = kindOf(story("A"), lanes("A", "writeFileSync writes 19 bytes to checkpoint.json (opened as checkpoint.json.tmp, renamed since)"));
    expect(a.place).toBe("a load went wrong after a write to checkpoint.json (renamed since)");
    expect(kindOf(story("B"), lanes("B", "writeFileSync writes 2 bytes to checkpoint.json (opened as checkpoint.json.tmp, renamed since)")).key).toBe(a.key);
    expect(kindOf(story("A"), lanes("A", "writeFileSync writes 19 bytes to checkpoint.json", { kind: "write", touched: "checkpoint.json" })).key).not.toBe(a.key);
    // The words are not read: the same data under other words is the same place.
    expect(kindOf(story("A"), lanes("A", "anything at all")).key).toBe(a.key);
  });

  test("a check that waits is one kind per check it waits on, read from the checks it waits on, whatever its message says; one the grader could not run, by its cause; one with no outcome recorded, a kind with those whose whole story is the same", () => {
    const waiting = (waitsOn: string[], message: string) => failureKind({ status: "blocked", message, waitsOn });
    expect(waiting(["phase1.round-trip"], "Scored only once phase1.round-trip passes; fix that first.\nIt also fails on its own:\nanything").outcome).toBe("waits on phase1.round-trip");
    expect(waiting(["phase1.crash-safety", "phase1.stale-temp"], "Scored only once phase1.crash-safety and phase1.stale-temp pass; fix those first.").outcome).toBe("waits on phase1.crash-safety and phase1.stale-temp");
    expect(waiting(["phase1.round-trip"], "Scored only once phase1.round-trip passes; fix that first.").key).toBe(waiting(["phase1.round-trip"], "Scored only once phase1.round-trip passes; fix that first.\nIt also fails on its own:\nother").key);
    // Reworded, the sentence groups as before: the kind is made from the data, never from the words.
    expect(waiting(["phase1.round-trip"], "Waits for phase1.round-trip.").key).toBe(waiting(["phase1.round-trip"], "Scored only once phase1.round-trip passes; fix that first.").key);
    expect(kindOf("the grader could not run it: ReferenceError: x is not defined", undefined, "error").outcome).toBe("the grader could not run it: ReferenceError: x is not defined");
    const unrecorded = (message: string) => failureKind({ status: "failed", message });
    expect(unrecorded("Step 3 ran twice.\nMore words.").outcome).toBe("no outcome recorded: Step 3 ran twice.");
    expect(unrecorded("Step 3 ran twice.").key).not.toBe(unrecorded("Step 4 ran twice.").key);
    // Only a story the same whole is the same kind: a first line alike is not read as alike.
    expect(unrecorded("Step 3 ran twice.\nIn run 1.").key).not.toBe(unrecorded("Step 3 ran twice.\nIn run 2.").key);
    expect(unrecorded("Step 3 ran twice.\nIn run 1.").key).toBe(unrecorded("Step 3 ran twice.\nIn run 1.").key);
  });
});
