// What `--replay` prints: one case of one check, run again on the code as it is now, and whether
// it still fails. A replay grades nothing: no tick, no points, no score.
import pc from "picocolors";
import type { CheckMeta } from "../grading/verdict.js";

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
  exitCode: 0 | 1 | 2;
}

/** Reads the replay's outcome off the verdicts of the grade that ran it; `scrub` removes machine paths from a story. */
export function replayOutcome(verdicts: CheckMeta[], replay: { checkId: string; path: string; command: string; scrub: (text: string) => string }): ReplayOutcome {
  const { checkId, path, command, scrub } = replay;
  const meta = verdicts.find((v) => v.id === checkId);
  const base = { checkId, path, command };
  if (!meta) return { ...base, kind: "error", text: `the grader ran no check ${checkId}`, exitCode: 2 };
  if (meta.status === "error") return { ...base, kind: meta.replayed ? "does-not-fit" : "error", text: scrub(meta.message ?? ""), exitCode: 2 };
  if (!meta.replayed) {
    const text = `${checkId} has no cases to replay one by one: it runs the same cases every time. Run \`${command}\` to grade it.`;
    return { ...base, kind: "no-cases", text, exitCode: 2 };
  }
  if (meta.status === "failed") return { ...base, kind: "still-fails", text: scrub(meta.message ?? ""), exitCode: 1 };
  return { ...base, kind: "passes", exitCode: 0 };
}

/** The replay as the student reads it. */
export function renderReplay(o: ReplayOutcome, opts: { color: boolean }): string {
  const c = pc.createColors(opts.color);
  const what = `Replayed one case of ${o.checkId} (--replay ${o.path})`;
  switch (o.kind) {
    case "still-fails":
      return [c.bold(`${what}: it still fails.`), ...(o.text ?? "").split("\n").map((l) => `  ${l}`)].join("\n");
    case "passes":
      return [c.bold(`${what}: this case passes now.`), `Run \`${o.command}\` to grade the check: other cases may still fail.`].join("\n");
    case "does-not-fit":
    case "no-cases":
      return c.yellow(o.text ?? "");
    case "error":
      return c.red(`Could not replay ${o.checkId}: ${o.text}`);
  }
}
