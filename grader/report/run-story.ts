// The story of a run of concurrent writers that went wrong (concurrency.*), rendered from its
// Finding: who saved what over what, the writers' calls in the order they ran, and what went
// wrong after which; in words that repeat from grade to grade (no process id, clock time or
// random part of a temp name). The lanes picture says its steps and failure in the same words.
import type { ConcurrentWriters, RunWent, RunWrong } from "../contract/finding.js";
import { normaliseName } from "../crash/names.js";
import { callLead, callWords, callWrongWords, saveCall } from "./call-words.js";
import { formatBytes } from "./sizes.js";

/** "A", "B", "C". */
export function writerName(i: number): string {
  return String.fromCharCode(65 + i);
}

/** A name the sandbox tracks ("@/work/checkpoint.json.tmp") as the story names files ("checkpoint.json.tmp"). */
export function shownName(name: string): string {
  return name.replace(/^@\/(work\/)?/, "");
}

/** The most steps a story lists: the first few and the last ones before the failure. */
const SHOWN_STEPS = 24;

/** The numbered steps of a story: all of them, or the first 4 and the last 20 with a line that counts those between (never one alone). */
export function elideSteps(lines: string[]): string[] {
  return elided(lines, (hidden) => `  … ${hidden} more …`);
}

/** The steps a story shows, of any form (its lines, a picture's rows): all, or the first 4 and the last 20 with `gap(hidden)` between them. */
export function elided<T>(items: T[], gap: (hidden: number) => T): T[] {
  const hidden = items.length - SHOWN_STEPS;
  if (hidden <= 1) return items;
  return [...items.slice(0, 4), gap(hidden), ...items.slice(-(SHOWN_STEPS - 4))];
}

/** A run that went wrong, in words: who wrote what, the order of their calls, what went wrong after which. */
export function runStory(setting: ConcurrentWriters, { afterStep, went }: RunWrong): string {
  const writers = setting.states.map((s, i) => `${writerName(i)} saves ${s}`).join(", ");
  const before = setting.old !== null ? `it held ${setting.old} before` : "there was no checkpoint before";
  // A load that changed the disk (removing leftovers, say) is told after the step it followed.
  const changed = setting.readerChanged.filter((c) => c.afterStep <= afterStep);
  const readerDid = (step: number) => changed.filter((c) => c.afterStep === step).flatMap((c) => c.names).map((n) => `${n.removed ? "removed" : "changed"} ${shownName(n.name)}`);
  const readerLine = (step: number) => {
    const did = readerDid(step);
    return did.length ? `; then the reader's loadCheckpoint ${did.join(", ")}` : "";
  };
  const lines = setting.steps.slice(0, afterStep).map((s, i) => `  ${i + 1}. ${writerName(s.writer)}: ${s.what}${s.failed ? " (it failed)" : ""}${readerLine(i + 1)}`);
  const atStart = readerDid(0);
  const first = atStart.length ? `Before any of their calls, the reader's loadCheckpoint ${atStart.join(", ")}.\n` : "";
  const tried = setting.tried.kind === "explored" ? `order ${setting.tried.order} of those tried` : "an order chosen at random from the seed";
  const order = lines.length ? `\nIn ${tried}, the writers' file-system calls ran in this order:\n${first}${elideSteps(lines).join("\n")}\n` : `\nIn ${tried}, ${first}`;
  const writerRule = changed.length > 0
    ? "A load must not change what a writer may be using: the reader's did, while the writers ran."
    : "A writer must not fail because another process is saving the same checkpoint.";
  const text = wentWords(went);
  const what = {
    load: `${afterStep ? `after step ${afterStep}` : "before any of them"}, ${text}. A reader must only ever see a whole state.`,
    writer: `${afterStep ? `after step ${afterStep}, ` : ""}${text}. ${writerRule}`,
    final: `once every writer had returned, ${text}. The checkpoint must then hold a state one of them saved.`,
    endless: `${text}.`,
  }[wentKind(went)];
  const story = `${setting.states.length} writers, each a process of its own, saved checkpoint.json at the same time (${writers}; ${before}), while a reader loaded it after every file-system call they made.${order}${what}`;
  return storyWords(story, runOf(setting));
}

/** Which kind of failure a run's is: a load while the writers ran, a writer's, the load once all had returned, or no end. */
export function wentKind(went: RunWent): "load" | "writer" | "final" | "endless" {
  switch (went.kind) {
    case "old-save-failed":
    case "writer-failed":
      return "writer";
    case "endless":
      return "endless";
    default:
      return went.final ? "final" : "load";
  }
}

/** What went wrong in a run, in words: "checkpoint.json held 0 bytes, and the reader's loadCheckpoint threw SyntaxError: ...; expected ...". */
export function wentWords(went: RunWent): string {
  switch (went.kind) {
    case "old-save-failed":
      return `saving the old state before the writers started, ${went.ended.kind === "gone" ? `the process ${went.ended.said}` : callWords(saveCall(went.ended.result))}`;
    case "writer-failed":
      return `writer ${writerName(went.writer)}'s ${went.ended.kind === "gone" ? `process ${went.ended.said}` : callWords(saveCall(went.ended.result))}`;
    case "endless":
      return `the writers made ${went.calls.toLocaleString("en-US")} file-system calls without all of them returning (is a writer waiting in a loop for something another writer holds?)`;
    case "reader-gone":
      return `the reader's process ${went.said}`;
    case "reader-unfinished":
      return "the reader did not finish its load";
    case "reader-saw":
      return `checkpoint.json held ${heldWords(went.held)}, and the reader's ${callWrongWords(went.wrong)}`;
  }
}

/** What went wrong, cut to its lead (what a picture's label says): "the reader's loadCheckpoint threw SyntaxError", "writer A's atomicCheckpoint threw Error (EEXIST)". */
export function wentLead(went: RunWent): string {
  switch (went.kind) {
    case "old-save-failed":
      return went.ended.kind === "call" ? `saving the old state before the writers started, ${callLead(saveCall(went.ended.result))}` : wentWords(went);
    case "writer-failed":
      return went.ended.kind === "call" ? `writer ${writerName(went.writer)}'s ${callLead(saveCall(went.ended.result))}` : wentWords(went);
    case "reader-saw":
      return `the reader's ${callLead(went.wrong.call)}`;
    default:
      return wentWords(went);
  }
}

/** The checkpoint file as a story says it held: "no file", "0 bytes", "17 bytes ("{\"step\":1}")". */
function heldWords(held: { bytes: number; start: string } | null): string {
  if (held === null) return "no file";
  return held.bytes === 0 ? "0 bytes" : `${formatBytes(held.bytes)} (${JSON.stringify(held.start)})`;
}

/** What makes a run's words differ from grade to grade: how many writers, their and the reader's process ids, the writers' clock. */
export interface RunIds {
  writers: number;
  pids: number[];
  clockMs: number;
}

export function runOf({ states, pids, clockMs }: ConcurrentWriters): RunIds {
  return { writers: states.length, pids, clockMs };
}

/** Words of a run (a story, an error's message, a picture's labels) as they repeat from grade to grade: no process id, time or random part of a temp name. */
export function storyWords(text: string, { writers, pids, clockMs }: RunIds): string {
  // Process ids and the clock differ from grade to grade: each pid shows as whose it is, and a
  // time in milliseconds near the writers' clock as <time>.
  const named = pids.reduce((out, pid, i) => out.replace(new RegExp(`\\b${pid}\\b`, "g"), i < writers ? `<pid\u00a0of\u00a0${writerName(i)}>` : "<pid\u00a0of\u00a0the\u00a0reader>"), text);
  const timed = named.replace(/\b\d{13}\b/g, (ms) => (Math.abs(Number(ms) - clockMs) < 3_600_000 ? "<time>" : ms));
  // Random parts of temp names (crypto's, which differ from grade to grade) show as "*".
  return timed.replace(/checkpoint\.json[^ \n'",;:)]*/g, (name) => normaliseName(name));
}
