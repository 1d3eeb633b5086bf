// A finding's story, as a student reads it under a failed check: what the check did, what came
// back against what was expected, and what explains it, rendered from the Finding alone.
import type { Finding, Setting, Wrong } from "../contract/finding.js";
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
      const said = expected ?? words;
      if (wrong.when === "after-restart") return `After a restart (a fresh process), ${said}`;
      return wrong.when === "on-restart" ? `On restart, ${said}.` : said;
    }
    case "sandbox": {
      const text = `The process running your code ${wrong.said}`;
      return /[.?!)]$/.test(text) ? text : `${text}.`;
    }
  }
}

/** "a, then b, then c". */
function listed(items: string[]): string {
  return items.join(", then ");
}
