// The messages between the grader and an actor process (see runtime/actor.ts), one JSON line each,
// and the configuration it starts with.
import type { CallResult } from "./scenario.js";

/** A name in a footprint that stands for every name: what a program the target runs may change. */
export const EVERY_NAME = "*";

/** The names an operation reads and the names it changes ("@/work/checkpoint.json"); EVERY_NAME for any. */
export interface Footprint {
  reads: string[];
  writes: string[];
}

/** What an actor starts with, on standard input: the target bundle it runs. */
export interface ActorConfig {
  bundle: string;
  entry: string;
  targetDir: string;
}

/** What the grader asks an actor to do: one call, in a fresh module instance. */
export interface ActorCall {
  name: string;
  /** `{ $path: "work/x" }` becomes a path in the scenario folder. */
  args: unknown[];
  /** The scenario folder the actors share (with work/, cwd/ and tmp/). */
  root: string;
  /** Wait for the grader's go before each file-system operation. */
  gated: boolean;
  /** Process ids of the other actors: alive, for `process.kill(pid, 0)`. */
  livePids: number[];
  limitMs: number;
  /** When set, the time the call's clock starts at (see runtime/actor.ts, virtualClock). */
  clockMs?: number;
  /** The seed of the call's `Math.random` (each call is a process of its own, with numbers of its own). */
  randomSeed: number;
}

/** An operation the actor is about to make, waiting for its turn. */
export interface PendingOp {
  /** In words, for stories: "renameSync renames checkpoint.json.tmp to checkpoint.json". */
  what: string;
  /** The same operation as data. */
  did: StepDid;
  footprint: Footprint;
}

/**
 * What an operation does, as data beside its words: its kind ("open", "write", "rename", "run" for
 * a program, ...), the file it touches as the words name it (for a rename or a link, the name it
 * makes; none for the checkpoint's folder), and whether a descriptor's file was renamed or
 * removed since it was opened.
 */
export interface StepDid {
  kind: string;
  touched?: string;
  since?: "renamed since" | "removed since";
}

/**
 * `lastFailed`: the operation let through before this one threw. `granted`: that operation as it
 * was when it ran, when it differs from how it was announced (another process renamed the file
 * its descriptor writes, while it waited).
 */
export type ActorMessage =
  | { pid: number }
  | { op: PendingOp; lastFailed: boolean; granted?: PendingOp }
  /** `touched`: every name the call read or changed (through the calls the sandbox sees). */
  | { done: { result: CallResult; lastFailed: boolean; granted?: PendingOp; touched: Footprint } };
