// The outcome of one check, as a test carries it to the reporter in its `meta`.
import type { Picture } from "./picture.js";

export type CheckStatus = "passed" | "failed" | "error";

export interface Verdict {
  status: CheckStatus;
  /** For a failure: the story of the crash in the lab's words. For a pass: an optional note. */
  message?: string;
  /** The command that replays exactly this failure. */
  replay?: string;
  /** What the failure looked like, drawn with its story (contract/picture.ts). */
  picture?: Picture;
}

/** What a check test stores in `task.meta.check`. */
export interface CheckMeta extends Verdict {
  id: string;
  deliverable: string;
  crashStates: number;
  /** The check's own wall time in ms (0 when it did not run); varies from grade to grade. */
  durationMs: number;
  /** A check of it met a time limit (a verdict that may depend on how busy the machine was: never cached). */
  limitHit?: boolean;
  /** A `--replay` path was run (a check with no property to replay ignores it); with status "error", one that fits no case. */
  replayed?: boolean;
  /** When its deliverable began (its files' compiling) and when this check ended, in ms since the epoch. */
  span: [number, number];
}

declare module "vitest" {
  interface TaskMeta {
    check?: CheckMeta;
  }
}
