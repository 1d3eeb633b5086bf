// The words the HTML report gives a check's status, beside its colour: a mark and a word.
import type { CheckReportStatus } from "../report.js";

/** The mark shown before a check's title, as the terminal's scoreboard shows it. */
export const MARK: Record<CheckReportStatus, string> = { passed: "✓", failed: "✗", blocked: "–", error: "!" };

/** The word shown beside the mark: colour is never the only cue. */
export const STATUS_WORD: Record<CheckReportStatus, string> = { passed: "passed", failed: "failed", blocked: "waits", error: "error" };
