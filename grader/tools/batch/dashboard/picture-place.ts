// Where a failure happened, read from its picture (contract/picture*.ts) rather than from its
// story: the same place for two students with the same bug, whatever their code's style. Each
// place is made from the picture's data (an op's kind and the file it touched, a kill's step,
// the step a power cut found missing), never from its words or the story's. A crash
// inside a call is placed by the kind of file-system call it followed and the file that call
// touched ("after open of checkpoint.json"), not by its number (a student who writes a temp
// first has more calls before it) nor by the API (writeFileSync, openSync and `cp` all open the
// checkpoint; an open or a truncation that empties it is one place), and by what the checkpoint
// held after it. A run is placed by where
// its last kill fell, not at which step nor after how many kills (fast-check chooses those);
// writers by what went wrong and the call it followed; a diff by where the answer points
// relative to the first divergence.
import path from "node:path";
import { CHECKPOINT } from "../../../grading/calls.js";
import type { CallsPicture, DiffPicture, LanesPicture, MissingStep, Picture, RunsPicture } from "../../../contract/picture.js";
import type { LanesStep } from "../../../contract/picture-lanes.js";

/** The checkpoint's name in a "calls" picture: the path every Phase 1, power-loss and disk-fault scenario saves to. */
const CHECKPOINT_NAME = path.posix.basename(CHECKPOINT.$path);


/** Where a failure happened, in words that are its grouping key: "" when the picture cannot say more than the story's outcome does. Read from the picture's data alone. */
export function placeOf(picture: Picture): string {
  switch (picture.kind) {
    case "calls":
      return callsPlace(picture);
    case "runs":
      return runsPlace(picture);
    case "lanes":
      return lanesPlace(picture);
    case "diff":
      return diffPlace(picture);
  }
}

function callsPlace(picture: CallsPicture): string {
  const { afterOps, written, how, fault, missing } = picture.cut;
  const checkpoint = picture.after.find((f) => f.name === CHECKPOINT_NAME);
  const left = `${CHECKPOINT_NAME} ${checkpoint ? `left ${checkpoint.holds}` : "gone"}`;
  if (how === "power cut" && missing) return `power cut: ${MISSING_WORDS[missing]}; ${left}`;
  if (how === "power cut") return `power cut ${afterOps === 0 ? "before its first file-system call" : `right after ${opWords(lastOpBefore(picture, afterOps))}`}; ${left}`;
  if (how === "fault") return `${fault ?? "a fault"} at ${opWords(picture.ops[afterOps])}; ${left}`;
  // A cut inside a write that wrote nothing is a cut right after the call before it.
  if (written) return `killed inside ${opWords(picture.ops[afterOps])}; ${left}`;
  if (afterOps === 0) return `killed before its first file-system call; ${left}`;
  const before = opParts(lastOpBefore(picture, afterOps));
  // An open that empties the checkpoint and a truncation of it are one place: writeFileSync opens
  // with O_TRUNC, copyFileSync (and cpSync through it) opens and then truncates.
  if (before.where === CHECKPOINT_NAME && checkpoint?.holds === "empty" && EMPTYING.includes(before.kind)) return `killed right after ${CHECKPOINT_NAME} was emptied; ${left}`;
  return `killed right after ${before.kind} ${before.kind === "write" ? "to" : "of"} ${before.where}; ${left}`;
}

/** The kinds of call that can leave a file empty as they return. */
const EMPTYING = ["open", "ftruncate", "truncate"];

/** The step a power cut found missing, the same words for every submission. */
const MISSING_WORDS: Record<MissingStep, string> = {
  data: "the renamed file's data was never fsynced before the rename",
  "data-flush-ignored": "the renamed file's data was never fsynced before the rename: this Node's writeFileSync ignored flush",
  folder: "the folder was not fsynced after the rename onto the checkpoint",
};

/** The last op drawn before the cut, passing over a run of calls the picture leaves out. */
function lastOpBefore(picture: CallsPicture, afterOps: number): CallsPicture["ops"][number] | undefined {
  return picture.ops.slice(0, afterOps).reverse().find((op) => !op.skipped);
}

/** A file-system call as its kind and the file it touched (for a rename, the file it renamed onto): "open of checkpoint.json", "fsync of the folder", "write to another file". */
export function opWords(op: CallsPicture["ops"][number] | undefined): string {
  if (!op || op.kind === undefined) return "a call";
  const { kind, where } = opParts(op);
  return `${kind} ${kind === "write" ? "to" : "of"} ${where}`;
}

/** A file-system call's kind ("open") and the file it touched, by its role ("checkpoint.json", "the folder", "another file"): from the op's data, not its label. */
function opParts(op: CallsPicture["ops"][number] | undefined): { kind: string; where: string } {
  if (!op || op.kind === undefined) return { kind: "call", where: "a file" };
  return { kind: op.kind, where: fileRole(op.touched) };
}

/** The checkpoint by its name, the scenario's folder as "the folder", any other file (a temp, a copy) as "another file". */
function fileRole(name: string | undefined): string {
  if (name === undefined || name === "the folder") return "the folder";
  if (name === CHECKPOINT_NAME) return CHECKPOINT_NAME;
  return name === "work" || name === "." ? "the folder" : "another file";
}

/** Where the last kill fell (the one the story's last run recovered from: how many kills came before it is fast-check's choice), and whether a session printed a wrong status. */
function runsPlace(picture: RunsPicture): string {
  const lastKill = [...picture.runs].reverse().find((r) => r.killed)?.killed;
  const printed = picture.runs.some((r) => r.printed?.wrong) ? `a ${picture.unit} printed a wrong status` : "";
  return [lastKill ? `killed ${KILLED_WORDS[lastKill.at]}` : "", printed].filter(Boolean).join("; ");
}

const KILLED_WORDS: Record<NonNullable<RunsPicture["runs"][number]["killed"]>["at"], string> = {
  before: "before a step",
  "in-step": "inside a step, before its side effect",
  "in-window": "after a step's side effect, before the boundary after it",
  after: "after a step's side effect",
};

/** What went wrong, the writer's call it went wrong after ("a load went wrong after a write to checkpoint.json (renamed since)"), and whether a load changed the disk. */
function lanesPlace(picture: LanesPicture): string {
  const { kind, afterStep } = picture.failure;
  const step = picture.steps.find((s) => s.n === afterStep && s.writer && s.did);
  const changed = picture.loads.some((l) => l.changed?.length) ? "; a load changed the disk" : "";
  return `${LANES_FAILURE[kind]}${step ? ` after ${stepWords(step)}` : ""}${changed}`;
}

/**
 * A writer's call as the story tells it ("writeFileSync writes 19 bytes to checkpoint.json
 * (opened as checkpoint.json.tmp, renamed since)"), as its kind and the file it touched (for a
 * rename, the file it renamed onto), with what became of that file or the call: "a write to
 * checkpoint.json (renamed since)", "a rename of checkpoint.json (it failed)".
 */
export function stepWords(step: Pick<LanesStep, "did" | "failed">): string {
  if (!step.did) return "a call";
  const { kind, touched } = step.did;
  const since = step.failed ? "it failed" : step.did.since;
  return `a ${kind} ${kind === "write" ? "to" : "of"} ${fileRole(touched)}${since ? ` (${since})` : ""}`;
}

const LANES_FAILURE: Record<LanesPicture["failure"]["kind"], string> = {
  load: "a load went wrong",
  writer: "a writer failed",
  final: "the last state was wrong",
  endless: "the writers never all returned",
};

function diffPlace(picture: DiffPicture): string {
  const answer = picture.answer;
  if (!answer) return "";
  if (answer.step === undefined) return "named no step";
  if (picture.step === null) return "named a step where the histories do not differ";
  if (answer.step < picture.step) return "named a step before the first divergence";
  if (answer.step > picture.step) return "named a step after the first divergence";
  const missed = picture.paths.some((p) => p.listed === false) ? "left out paths that differ" : "";
  const extra = answer.extra?.length ? "named paths that do not differ" : "";
  return ["named the first divergent step", missed, extra].filter(Boolean).join("; ");
}
