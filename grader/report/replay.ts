// What `--replay` prints: one case of one check, run again on the code as it is now, and whether
// it still fails. A replay grades nothing: no tick, no points, no score.
import pc from "picocolors";
import type { CheckMeta } from "../contract/verdict.js";
import { commandLines, hanging } from "./layout.js";
import type { Picture } from "../contract/picture.js";
import { pictureLines } from "./picture-lines.js";

/** The outcome of a replay, in the student's terms, and the exit status it ends with. */
export interface ReplayOutcome {
  checkId: string;
  path: string;
  /** The command that grades the check whole (the replay's, without --replay). */
  command: string;
  /** still-fails (exit 1), passes (0), or could not replay: no case at that path, no cases to replay, the grader failed (2). */
  kind: "still-fails" | "passes" | "does-not-fit" | "no-cases" | "error";
  /** The failure's story, or why the case could not be replayed. */
  text?: string;
  /** The failure's picture, drawn above its story, when its check draws one. */
  picture?: Picture;
  exitCode: 0 | 1 | 2;
}

/** Reads the replay's outcome off the verdicts of the grade that ran it; `scrub` removes machine paths from a story. */
export function replayOutcome(verdicts: CheckMeta[], replay: { checkId: string; path: string; command: string; scrub: (text: string) => string }): ReplayOutcome {
  const { checkId, path, command, scrub } = replay;
  const meta = verdicts.find((v) => v.id === checkId);
  const base = { checkId, path, command };
  if (!meta) return { ...base, kind: "error", text: `the grader ran no check ${checkId}`, exitCode: 2 };
  if (meta.status === "error") return meta.replayed ? { ...base, kind: "does-not-fit", exitCode: 2 } : { ...base, kind: "error", text: scrub(meta.message ?? ""), exitCode: 2 };
  if (!meta.replayed) return { ...base, kind: "no-cases", exitCode: 2 };
  if (meta.status === "failed") return { ...base, kind: "still-fails", text: scrub(meta.message ?? ""), ...(meta.picture ? { picture: meta.picture } : {}), exitCode: 1 };
  return { ...base, kind: "passes", exitCode: 0 };
}

/** The replay as the student reads it, wrapped to `width` columns; a command is on lines of its own, to paste as it is. */
export function renderReplay(o: ReplayOutcome, opts: { color: boolean; width: number }): string {
  const c = pc.createColors(opts.color);
  const text = (line: string, indent = 0) => hanging(line, { indent, width: opts.width });
  const command = commandLines("", o.command, { indent: 2, width: opts.width });
  const what = `Replayed one case of ${o.checkId} (--replay ${o.path})`;
  const lines = ((): string[] => {
    switch (o.kind) {
      case "still-fails":
        return [...text(c.bold(`${what}: it still fails.`)), ...(o.picture ? pictureLines(o.picture, { width: opts.width, indent: 2, c }) : []), ...(o.text ?? "").split("\n").flatMap((l) => text(l, 2))];
      case "passes":
        return [...text(c.bold(`${what}: this case passes now.`)), ...text("Other cases may still fail: grade the check with"), ...command];
      case "does-not-fit":
        return [...text(c.yellow(`The replay path ${o.path} leads to no case of ${o.checkId} on this code: it was mistyped, or printed for other code or another seed. Find its failures again with`)), ...command];
      case "no-cases":
        return [...text(c.yellow(`${o.checkId} has no cases to replay one by one: it runs the same cases every time. Grade it with`)), ...command];
      case "error":
        return text(c.red(`Could not replay ${o.checkId}: ${o.text}`));
    }
  })();
  return lines.join("\n");
}
