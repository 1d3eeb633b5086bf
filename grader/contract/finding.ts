// A failure as data, as a check finds it: what the check did, in the task's terms; what came back
// against what was expected; and what else explains it. The story a student reads is rendered from
// it (report/finding-story.ts), and so is the cause the report compares (grading/finding-cause.ts):
// no sentence is made first and read back. Checks move to Findings one at a time; until one has,
// it tells its story as text, and what that story tells is recorded beside it (grading/told.ts).
import type { Cut, DiskEntry, Trace } from "../crash/model.js";
import type { Torn } from "../sandbox/messages/process.js";
import type { CallResult, Fault, FaultPoint } from "../sandbox/messages/scenario.js";

/** A case's failure: a Finding, or the story of a check that still tells it as text (grading/told.ts records what that tells). */
export type Failure = string | Finding;

export interface Finding {
  /** What the check did before what went wrong; none where the failure needs no setting. */
  setting?: Setting;
  /** When what went wrong happened, where that is not the setting's own moment. */
  when?: When;
  wrong: Wrong;
  /** What else explains the failure, after it. */
  notes?: Note[];
}

/** What the check did, with what it chose (states are shown as the start of their JSON). */
export type Setting =
  /** phase1.round-trip: these states written in turn, a load after each. */
  | { kind: "writes-in-turn"; shown: string[] }
  /** phase1.absent: a load of a path in `where` ("an empty folder"), where nothing was ever written. */
  | { kind: "nothing-written"; where: string }
  | CrashInCall
  | PowerCutInCall
  | KilledProcesses
  | KilledEnteringStep
  | CrashChain
  | TaskCrashes
  | DiskSaidNo
  | ConcurrentWriters;

/**
 * phase1.crash-schedules and power-loss.cut-while-recovering: crashes (or power cuts) in a row.
 * Process 1 wrote the old checkpoint `old` (shown; null: there was none); each link is a later
 * process and where it was cut; `disk`, what the last cut left, once the last process ran.
 */
export interface CrashChain {
  kind: "crash-chain";
  old: string | null;
  links: ChainLink[];
  disk?: DiskEntry[];
}

/**
 * A process of a chain and its cut: its number in the story, its recorded `trace` (its first call
 * from `start`, its save from `writeStart` to `writeEnd`), the state it saved (shown), and what its
 * load returned when it loaded first.
 */
export interface ChainLink {
  number: number;
  trace: Trace;
  cut: Cut;
  start: number;
  writeStart: number;
  writeEnd: number;
  state: string;
  loaded?: CallResult;
}

/**
 * phase2's and stretch-git's crash checks: runs of the task in a row, each killed at its `cut`, or,
 * `paused`, run out of its maxSteps `budget` and returned (its cut is its end); each run began on
 * what the run before it left (the first, on empty folders). A run is its recorded `trace`, where
 * its runTask call starts in it, and, for a git-backed runner, its repository's folder.
 */
export interface TaskCrashes {
  kind: "task-crashes";
  crashes: CrashedRun[];
}

export interface CrashedRun {
  run: { trace: Trace; start: number; checkpointRepo?: string };
  cut: Cut;
  budget?: number;
  paused?: true;
}

/**
 * power-loss.never-torn and power-loss.durable: the call `call` (as shown), over the old checkpoint
 * `old` (shown; null for none), its power cut at `cut` of its recorded `trace` (its own calls run
 * from `start` to `end`; a cut at `end` falls right after it returned), which left `disk`.
 */
export interface PowerCutInCall {
  kind: "power-cut-in-call";
  old: string | null;
  call: string;
  trace: Trace;
  cut: Cut;
  start: number;
  end: number;
  disk: DiskEntry[];
}

/**
 * phase1.killed-process: real processes in turn over one folder. Process 1 writes the old
 * checkpoint `old`; process 2 saves `next` and is killed with SIGKILL in its first write (`torn`:
 * where, once it was; its file named as the story names it); process 3 loads; process 4 writes
 * `after` and loads it; process 5 loads. `at`: the step whose failure is told (the wrong frames it).
 */
export interface KilledProcesses {
  kind: "killed-processes";
  at: "write-old" | "kill-in-write" | "load-after-kill" | "write-new" | "load-new" | "load-in-next";
  old: string;
  next: string;
  after: string;
  torn: (Torn & { shownFile: string }) | null;
}

/**
 * phase2.killed-at-step-6, the handout's scenario with real processes: process 1 ran runTask to be
 * killed with SIGKILL as it entered runStep(`step`); `killed`: it was, and process 2 then ran
 * runTask again over what it left (what went wrong is process 2's); else what went wrong is what
 * process 1 did instead.
 */
export interface KilledEnteringStep {
  kind: "killed-entering-step";
  step: number;
  killed: boolean;
}

/**
 * phase1.crash-safety: the call `call` (as shown), over the old checkpoint `old` (shown; null for
 * none), killed at `cut` of its recorded `trace` (its own calls begin at `start`), which left `disk`.
 */
export interface CrashInCall {
  kind: "crash-in-call";
  old: string | null;
  call: string;
  trace: Trace;
  cut: Cut;
  start: number;
  disk: DiskEntry[];
}

/**
 * disk-faults.*: the call `call` (as shown) over the old checkpoint `old` (shown; null for none),
 * on a disk that said no: `fault`, at `point`, one of the `of` calls of its kind the call made.
 * `result`: what the call did; `disk`: what it left.
 */
export interface DiskSaidNo {
  kind: "disk-said-no";
  old: string | null;
  call: string;
  fault: Fault;
  point: FaultPoint;
  of: number;
  result: CallResult;
  disk: DiskEntry[];
}

/**
 * concurrency.*: writers, each a process of its own, saving the checkpoint at once while a reader
 * loads it after every call they make. `states`: what each saves (shown; writer A's first); `old`:
 * the checkpoint before (shown; null for none); `tried`: which run this was (the `order`-th of
 * those explored, or one chosen at random from the seed); `steps`: the writers' calls in the
 * order they ran, up to what went wrong (`what`: the call in words, as the sandbox says it);
 * `readerChanged`: the names the reader's loads changed on disk (removed or not), after which
 * step. `pids` (the writers', then the reader's) and `clockMs` (the writers' clock) differ from
 * grade to grade: a story names each pid by whose it is, and a time near the clock as <time>.
 */
export interface ConcurrentWriters {
  kind: "concurrent-writers";
  states: string[];
  old: string | null;
  tried: { kind: "explored"; order: number } | { kind: "random" };
  steps: { writer: number; what: string; failed: boolean }[];
  readerChanged: { afterStep: number; names: { name: string; removed: boolean }[] }[];
  pids: number[];
  clockMs: number;
}

/** What came back, against what was expected. */
export type Wrong = CallWrong | SandboxWrong | ProcessWrong | NoWriteToKill | TooManyCalls | RunWrong | RecordWrong | TaskResultWrong | RanWhenDone | NeverEntered | StepsByProcess | BudgetSteps;

/** phase2.max-steps: run `run` (with `maxSteps`, or none) ran the steps `ran`, not the next ones it had left, `expected`. */
export interface BudgetSteps {
  kind: "budget-steps";
  run: number;
  maxSteps?: number;
  ran: number[];
  expected: number[];
}

/** phase2.killed-at-step-6: process 1's runTask returned as it must, yet never entered runStep(`step`), the step it was to be killed in. */
export interface NeverEntered {
  kind: "never-entered";
  step: number;
}

/** phase2.killed-at-step-6: the record shows other steps in each process than the kill allows; `ran`: the steps process 1, then process 2, ran, in order; `expected`: those each must run. */
export interface StepsByProcess {
  kind: "steps-by-process";
  ran: [number[], number[]];
  expected: [number[], number[]];
}

/**
 * phase2.finished: once the task was done, runTask called runStep, in the later runs `runs` (each a
 * new process: its number, 1 being the run that did the task; its maxSteps, if any; the steps it called).
 */
export interface RanWhenDone {
  kind: "ran-when-done";
  runs: { run: number; maxSteps?: number; steps: number[] }[];
}

/**
 * runTask, having run `stepsDone` of the task's `steps` steps, did not return what it must: the
 * run `{ status, nextStep }` ("done" once every step ran, else "paused"; the next step to run)
 * with the state after its last step. `call`: it did not return, or returned something else than
 * a run (`held`: the steps the record then holds, told instead of what was expected, after crashes); `run`: it returned this status and nextStep instead; `state`: the right status and
 * nextStep with another state (null: with none).
 */
export interface TaskResultWrong {
  kind: "task-result";
  stepsDone: number;
  steps: number;
  got: { kind: "call"; call: CallMade; held?: number[] } | { kind: "run"; status: unknown; nextStep: unknown } | { kind: "state"; state: TaskState | null };
}

/**
 * The lab's record of side effects after a task's processes (`unit`: its runs, or its sessions)
 * shows a wrong recovery: runStep was called with a step outside the task's 1 to `steps`; a step
 * never ran (`held`: the steps the record holds, in its order); a step ran, in process `run`, on a
 * state other than the one the step before it produced; or a step ran in the processes `runs`,
 * more times than once plus the `crashes` that landed between its side effect and its checkpoint.
 */
export interface RecordWrong {
  kind: "record";
  unit: "run" | "session";
  went: RecordWent;
}

export type RecordWent =
  | { kind: "step-outside"; step: number; steps: number }
  | { kind: "never-ran"; step: number; held: number[] }
  | { kind: "wrong-state"; step: number; run: number; state: TaskState }
  | { kind: "ran-again"; step: number; runs: number[]; crashes: number };

/** A state of the task's, by what produced it: its initial state, step `step`, or nothing the task does. */
export type TaskState = { kind: "initial" } | { kind: "after-step"; step: number } | { kind: "never-produced" };

/** What went wrong in a run of concurrent writers, after `afterStep` of their calls (0: before any). */
export interface RunWrong {
  kind: "run";
  afterStep: number;
  went: RunWent;
}

/**
 * The save of the old state (before the writers started) or a writer's save ended badly; the
 * writers made `calls` calls without all of them returning; or the reader's load (`final`: the
 * one once every writer had returned) ended badly, or returned what it must not (`held`: the
 * checkpoint file then, its size and first characters, null when there was none).
 */
export type RunWent =
  | { kind: "old-save-failed"; ended: SaveEnded }
  | { kind: "writer-failed"; writer: number; ended: SaveEnded }
  | { kind: "endless"; calls: number }
  | { kind: "reader-gone"; final: boolean; said: string }
  | { kind: "reader-unfinished"; final: boolean }
  | { kind: "reader-saw"; final: boolean; held: { bytes: number; start: string } | null; wrong: CallWrong };

/** How a save ended badly: the call did not return normally (`result`), or its process ended (`said`: the supervisor's words for how). */
export type SaveEnded = { kind: "call"; result: CallResult } | { kind: "gone"; said: string };

/**
 * A call that did not do what was expected. `expected`: the states a load may return (one of
 * them); none for a call that was to return normally.
 */
export interface CallWrong {
  kind: "call";
  call: CallMade;
  expected?: ExpectedState[];
}

/**
 * When what went wrong happened: in a fresh process after a restart with nothing crashed; on the
 * restart after a crash; in the process that recovered from a crash, which went on to write
 * another state (`wrote`, shown) and then again the one it was writing when it crashed (`again`),
 * and got as far as the step `reached` (phase1.stale-temp); or in process `process` of a chain of
 * crashes, after what it `did` (a load, then a write of `wrote`, shown); or in a task's run (TaskRun).
 */
export type When =
  | { kind: "after-restart" }
  | { kind: "on-restart" }
  | { kind: "recovering"; reached: RecoveryStep; wrote: string; again: string }
  | { kind: "in-chain"; process: number; did: "nothing" | "loaded" | "loaded-and-wrote"; wrote?: string }
  | AfterFault
  | TaskRun
  | AfterCrashes
  | BudgetedRuns;

/**
 * phase2.max-steps: runTask in a process of its own with each maxSteps of `budgets` in turn, then
 * one with none; `inRun`: the run whose call or result went wrong, named before it.
 */
export interface BudgetedRuns {
  kind: "budgeted-runs";
  budgets: number[];
  inRun?: number;
}

/**
 * The run `run` after a TaskCrashes setting's crashes: a new process that ran runTask to the end
 * (`newProcess`: the story says so), or (`toCrash`) the run recorded to be crashed next.
 */
export interface AfterCrashes {
  kind: "after-crashes";
  run: number;
  newProcess: boolean;
  toCrash?: true;
}

/**
 * A task's run with no crash: one runTask call of the whole `steps`-step task (phase2.complete-run);
 * the first run, to completion; once the task was done, a new process's runTask (phase2.finished);
 * or the run a crash check records to crash (of runner.ts, or of git-checkpoint.ts).
 */
export interface TaskRun {
  kind: "task-run";
  run: "whole-once" | "first-to-end" | "again-when-done" | "crash-free" | "crash-free-git";
  steps: number;
}

/**
 * disk-faults: when a call the disk said no to went wrong, or what followed it: the call itself
 * with no fault (the sample's saves before the fault); a load in the same process after it, or in
 * a new one, or in a new one once the machine wrote out all it still could (`disk`: what was on
 * disk then); or, with the disk fine again, a process (a new one, or the one whose call failed)
 * saving `after` (shown), which went wrong at its save, its load, or a further new process's load.
 */
export type AfterFault =
  | { kind: "no-fault" }
  | { kind: "after-fault"; in: "same-process" | "new-process" }
  | { kind: "written-out"; disk: DiskEntry[] }
  | { kind: "disk-fine-again"; process: "new" | "same"; reached: "save" | "load" | "load-in-next"; after: string };

/** How far the recovering process got: the step of its call that went wrong. */
export type RecoveryStep = "write-new" | "load-new" | "write-again" | "load-again" | "load-after-restart";

/**
 * The process running the target's code met a limit or died. `said`: the sandbox's words for it
 * ("ran out of memory (...)"); `outcome`: the same for every submission that meets it.
 */
export interface SandboxWrong {
  kind: "sandbox";
  said: string;
  outcome: string;
}

/**
 * A real process of the target's did not finish its calls. `said`: the supervisor's words for why
 * ("the process did not finish within 20 s ..."); `outcome`: the same for every submission.
 */
export interface ProcessWrong {
  kind: "process";
  said: string;
  outcome: string;
}

/** A save that was to be killed in its first write returned having written no bytes, through Node's fs or a program it ran. */
export interface NoWriteToKill {
  kind: "no-write-to-kill";
}

/** A process (`fn`: the call of it the story names, if any) made more file-system calls than the grader records (`limits`: the recorder's limits, in words), so it could not be crashed. */
export interface TooManyCalls {
  kind: "too-many-calls";
  fn?: string;
  limits: string;
}

/** A call of the target's: its function, the call as a story shows it (with its arguments), and what it did. */
export interface CallMade {
  fn: string;
  shown: string;
  result: CallResult;
}

/** A state a call may return: its label ("the state just written"; "" for none) and its JSON as shown. */
export interface ExpectedState {
  label: string;
  shown: string;
}

export type Note =
  /** The call `fn` returned while file-system calls it started were still to run. */
  | { kind: "returned-unfinished"; fn: string }
  /** What the student's code must do about this kind of failure, as the check words it (a question, never the answer). */
  | { kind: "hint"; says: string };
