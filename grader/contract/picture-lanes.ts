// The "lanes" picture's data (contract/picture.ts): writers saving one checkpoint at once while a
// reader loads it (concurrency). One lane per writer and one for the reader; the writers'
// file-system calls in the order they ran, numbered as the story numbers them; the reader's loads
// at the steps they followed, each with what it returned; and what went wrong, after which step.
// Drawn in the terminal by picture-lines-lanes.ts and as SVG by html/svg-lanes.ts; built from the
// story's own record by checks/concurrency/lanes-picture.ts.

/** Writers and a reader in lanes, the calls in the order they ran, the loads, and the failure marked. */
export interface LanesPicture {
  kind: "lanes";
  /** One lane per writer, in order: its name ("A") and the state it saves, as the story shows it. */
  writers: { name: string; saves: string }[];
  /** The checkpoint before the writers started, as the story shows it; null when there was none. */
  before: string | null;
  /** The steps the story lists, in the order they ran (a run the story leaves out is one entry with `skipped`). */
  steps: LanesStep[];
  /** The reader's loads at the steps drawn, in the order it made them, each with what it returned. */
  loads: LanesLoad[];
  /** What went wrong, after which step, as the story tells it. */
  failure: LanesFailure;
}

/** One writer's file-system call, or a run of steps the story leaves out. */
export interface LanesStep {
  /** Its number in the story ("3." for the third call); for a gap, the number of its first step. */
  n: number;
  /** Whose call it was ("A"); absent for a gap. */
  writer?: string;
  /** What it did, as the story says it: "openSync opens checkpoint.json.tmp (w)"; absent for a gap. */
  what?: string;
  /** The same call as data: its kind, the file it touched as `what` names it (none for the checkpoint's folder), and whether that file was renamed or removed since it was opened. */
  did?: { kind: string; touched?: string; since?: "renamed since" | "removed since" };
  /** The call failed (the story says "(it failed)"). */
  failed?: boolean;
  /** For a gap: how many steps it stands for. */
  skipped?: number;
}

/** One load of the reader: after how many steps, what it returned, and whether it is the failure. */
export interface LanesLoad {
  /** How many steps had run (0: before the first). */
  afterStep: number;
  /** The load once every writer had returned. */
  final?: boolean;
  /**
   * What it returned: "state" when it is one of those allowed (`states` says which), "other" for
   * another value, "threw", or "no answer" when the reader's process gave none.
   */
  saw: "state" | "other" | "threw" | "no answer";
  /** For "state": the states it equals: "null" (no checkpoint), "none" (what this loadCheckpoint gives where nothing was written, not null), "old", or a writer's name. */
  states?: string[];
  /** For "threw": the error's name ("SyntaxError"). */
  error?: string;
  /** The first wrong load: the failure. */
  wrong?: boolean;
  /** What this load changed on disk, as the story tells it: "removed checkpoint.json.tmp-<pid of A>-*". */
  changed?: string[];
}

/** What went wrong: the story's words, short and whole, and where the drawing marks it. */
export interface LanesFailure {
  /** A wrong load, a writer that threw or died, the wrong final state, or writers that never all returned. */
  kind: "load" | "writer" | "final" | "endless";
  /** How many steps had run (0: before the first); the story's "after step N". */
  afterStep: number;
  /** For "writer": whose call failed ("B"). */
  writer?: string;
  /** In a few words: "the reader's loadCheckpoint threw SyntaxError", "writer B's atomicCheckpoint threw Error (ENOENT)". */
  short: string;
  /** The story's whole sentence of it (process ids and temp names as the story shows them). */
  text: string;
}

/** What a load returned, as the drawings label it: "null", "old", "A's", "B's/C's", "threw", "other", "no answer". */
export function loadLabel(load: LanesLoad): string {
  if (load.saw !== "state") return load.saw;
  return (load.states ?? []).map((s) => (s === "null" || s === "none" || s === "old" ? s : `${s}'s`)).join("/");
}

/** How many steps a picture's entries stand for (a gap counts the steps it leaves out). */
export function stepsCounted(steps: LanesStep[]): number {
  return steps.reduce((n, s) => n + (s.skipped ?? 1), 0);
}
