// The "runs" picture's data (contract/picture.ts): the runs of the lab task (Phase 2, stretch-git)
// or its sessions (Phase 3), one row each, the steps whose side effect each performed as cells on
// a step axis 1..steps, where a run was killed, and the step the story names as wrong. Drawn in
// the terminal by picture-lines-runs.ts and as SVG by html/svg-runs.ts; built from the story's own
// record by checks/phase2/runs-picture.ts. A crash replayed from a recorded trace also has the
// folder when its run started and right after the crash, drawn in the HTML report (html/folders.ts).
import type { PictureFile } from "./picture-file.js";

/** Runs of the task, one row each, with the steps each ran, where one was killed, and what went wrong. */
export interface RunsPicture {
  kind: "runs";
  /** What a row is called in the story: "run" (Phase 2, stretch-git), "process" or "session" (Phase 3). */
  unit: "run" | "process" | "session";
  /** The task's step count: the axis runs 1..steps. */
  steps: number;
  /** Each run in the order it ran: row 1 is run 1. */
  runs: PictureRun[];
  /** What the story says went wrong, when it names a step or a run. */
  wrong?: PictureWrong;
  /** For the last crash (the one the next run recovered from), when its run's trace holds all it did: the folder as `run` (1 first) started and right after the crash. */
  folders?: RunFolders;
}

/** The scenario's work and temp folders when a run started and right after it was killed; "old" is the checkpoint as the run found it, "new" as the uncut run left it. */
export interface RunFolders {
  run: number;
  before: PictureFile[];
  after: PictureFile[];
}

/** One run (a process): its step budget, the steps it ran, where it was killed, what it printed. */
export interface PictureRun {
  /** Its maxSteps (--max-steps for a session), when it had one. */
  budget?: number;
  /** The steps whose side effect it performed, in order; `time` counts the runs of that step so far (2: its second). */
  cells: PictureCell[];
  /**
   * Where it was killed, when it was: "before" step `step` started (step 0 "after": before it ran
   * any step), "in-step": inside runStep(step) before its side effect, "in-window": after its side
   * effect and before the boundary after it, "after": after its side effect (at the boundary
   * after it, or somewhere before the next step's). `words` are the story's: "at the boundary after step 6".
   */
  killed?: { step: number; at: "before" | "in-step" | "in-window" | "after"; words: string };
  /** A session's last line of output (its status), when the story judges it; `wrong` when the story says it is not what was expected. */
  printed?: { line: string; wrong?: boolean };
}

/** One step a run performed. */
export interface PictureCell {
  step: number;
  /** 1 the first time the record holds this step, 2 the second, and so on. */
  time: number;
  /** The story says this run of the step started from a state it must not start from. */
  wrongState?: boolean;
}

/**
 * The story's complaint: `step` names the step it is about (it never ran, ran too often, ran on a
 * wrong state), `run` the run whose steps or output were wrong; `says` is the story's own words.
 */
export interface PictureWrong {
  step?: number;
  run?: number;
  says: string;
  /** The story says the step ran more often than it may: its repeats are the wrong cells. */
  ranAgain?: boolean;
}

/** A run's label, as the stories name it: "run 2", "session 1". */
export function runLabel(picture: Pick<RunsPicture, "unit">, index: number): string {
  return `${picture.unit} ${index + 1}`;
}

/** Whether `cell` is one the story counts against the target: a repeat of the step it says ran too often, or the run on a wrong state. */
export function isWrongCell(picture: Pick<RunsPicture, "wrong">, cell: PictureCell): boolean {
  if (cell.wrongState) return true;
  return picture.wrong?.ranAgain === true && picture.wrong.step === cell.step && cell.time > 1;
}
