// A finding's story, as a student reads it under a failed check: what the check did, what came
// back against what was expected, and what explains it, rendered from the Finding alone.
import type { CallWhen, Finding, Setting, Wrong } from "../contract/finding.js";
import { describeCut, describeDisk } from "../crash/describe.js";
import { callWords, returnedUnfinishedWords } from "./call-words.js";

export function storyOf({ setting, wrong, notes = [] }: Finding): string {
  const lines = setting ? [settingWords(setting)] : [];
  lines.push(wrongWords(wrong));
  for (const note of notes) lines.push(returnedUnfinishedWords(note.fn));
  return lines.join("\n");
}

export function settingWords(setting: Setting): string {
  switch (setting.kind) {
    case "writes-in-turn":
      return `Wrote ${listed(setting.shown)}, loading after each write.`;
    case "nothing-written":
      return `Called loadCheckpoint on a path in ${setting.where}, where nothing was ever written.`;
    case "crash-in-call": {
      const killed = describeCut(setting.trace, setting.cut, setting.start, { call: "atomicCheckpoint" });
      return `${callOver(setting.old, setting.call)} ${killed}.\nOn disk after the crash: ${describeDisk(setting.disk)}.`;
    }
  }
}

/** "With the old checkpoint {...} on disk, atomicCheckpoint(path, {...}) was": how a crash or a power cut in a save begins (`old` null: no checkpoint). */
export function callOver(old: string | null, call: string): string {
  return `${old === null ? "With no checkpoint on disk" : `With the old checkpoint ${old} on disk`}, ${call} was`;
}

/** What came back, against what was expected: "loadCheckpoint returned null; expected the state just written {...}". */
export function wrongWords(wrong: Wrong): string {
  switch (wrong.kind) {
    case "call": {
      const words = callWords(wrong.call);
      const expected = wrong.expected && `${words}; expected ${wrong.expected.map((e) => `${e.label ? `${e.label} ` : ""}${e.shown}`).join(" or ")}`;
      return wrong.when ? madeWhen(wrong.when, expected ?? words) : (expected ?? words);
    }
    case "sandbox": {
      const text = `The process running your code ${wrong.said}`;
      return /[.?!)]$/.test(text) ? text : `${text}.`;
    }
  }
}

/** `said` of a call, with when it was made. */
function madeWhen(when: CallWhen, said: string): string {
  switch (when.kind) {
    case "after-restart":
      return `After a restart (a fresh process), ${said}`;
    case "on-restart":
      return `On restart, ${said}.`;
    case "recovering":
      return `The next process (with the same process id, as a restarted container gets) loaded, ${recoveredSoFar(when)}: ${said}.`;
  }
}

/** What the recovering process did, up to the call that went wrong: only what happened is told as done. */
function recoveredSoFar({ reached, wrote, again }: Extract<CallWhen, { kind: "recovering" }>): string {
  const wroteNew = `wrote ${wrote}`;
  const rewrote = `wrote again the state it was writing when it crashed, ${again}`;
  switch (reached) {
    case "write-new":
      return "then tried to write a new state";
    case "load-new":
      return `${wroteNew}, then loaded it back`;
    case "write-again":
      return `${wroteNew} and loaded it back, then tried to write again the state it was writing when it crashed`;
    case "load-again":
      return `${wroteNew} and loaded it back, ${rewrote}, then loaded it back`;
    case "load-after-restart":
      return `${wroteNew}, ${rewrote}, and loaded each back; after a further restart`;
  }
}

/** "a, then b, then c". */
function listed(items: string[]): string {
  return items.join(", then ");
}
