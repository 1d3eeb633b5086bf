// What a report format is: a flag of `npm run grade` (and `npm run report`) and a way to render
// the grade report as the file some platform reads.
import type { Report } from "../report.js";
import { commandTitle } from "../words.js";

/** What a format may need besides the report: the environment (a platform's variables) and the deliverables asked for. */
export interface FormatContext {
  env: NodeJS.ProcessEnv;
  /** Deliverable ids given with --only (empty: every one the report holds). */
  only: string[];
}

export interface ReportFormat {
  /** The command-line flag that asks for it, "--junit". */
  flag: string;
  /** One line for the usage text. */
  describe: string;
  /** The file's text; throws an Error whose message is for the user when the context is not enough. */
  render(report: Report, ctx: FormatContext): string;
}

/** The deliverables of the report that `ctx.only` selects (all when it names none). */
export function selectedDeliverables(report: Report, ctx: FormatContext): Report["deliverables"] {
  const only = ctx.only.map((id) => id.split(".")[0]!);
  return report.deliverables.filter((d) => only.length === 0 || only.includes(d.id));
}

/** A check's story for a platform that shows one text per test: the message, then the command that replays it or grades it again (commandTitle). */
export function checkText(check: Report["deliverables"][number]["checks"][number]): string {
  return [check.message, check.replay && `${commandTitle(check.replay)}: ${check.replay}`].filter(Boolean).join("\n");
}
