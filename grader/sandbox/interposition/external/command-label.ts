// How a command is named in the trace and in messages: in the target's own words, without the
// grader's scratch folders. An absolute path inside the scenario folder is shown relative to the
// work folder ("checkpoint.json"), as "$TMPDIR/..." inside the temp folder, or relative to the
// scenario folder elsewhere; temp names lose their process ids and random parts, as on the disk
// listings of messages ("checkpoint.json.*.tmp").
import fs from "node:fs";
import path from "node:path";
import { normaliseName } from "../../../crash/describe.js";
import type { Invocation } from "../../../crash/command-line.js";

/** An absolute path as a path relative to the scenario folder, or undefined outside it. */
export type ToRelative = (abs: string) => string | undefined;

/** Maps absolute paths into the scenario folder `root` (its temp folder may be a link to another file system). */
export function relativeTo(root: string): ToRelative {
  const bases: [string, string][] = [[root, ""]];
  for (const [abs, rel] of [[root, ""], [path.join(root, "tmp"), "tmp"]] as const) {
    try {
      const real = fs.realpathSync(abs);
      if (real !== abs) bases.push([real, rel]);
    } catch {}
  }
  return (abs) => {
    for (const [base, rel] of bases) {
      if (abs === base) return rel;
      if (abs.startsWith(base + path.sep)) return path.posix.join(rel, abs.slice(base.length + 1).split(path.sep).join("/"));
    }
    return undefined;
  };
}

/** A path relative to the scenario folder as a message shows it. */
export function shownPath(rel: string): string {
  if (rel === "") return "<scenario>";
  if (rel === "work" || rel === "tmp") return rel === "work" ? "." : "$TMPDIR";
  if (rel.startsWith("work/")) return rel.slice(5);
  if (rel.startsWith("tmp/")) return `$TMPDIR/${rel.slice(4)}`;
  return rel;
}

/**
 * The command line as the trace names it (`mv -f .checkpoint.json.*.tmp checkpoint.json`).
 * `known` says whether a path (relative to the scenario folder) was there before or after the
 * command: a relative word is a file name only then, and only then is its temp name hidden.
 */
export function commandLabel(invocation: Invocation, options: { relative: ToRelative; known: (rel: string) => boolean }): string {
  const rewrite = (text: string) =>
    text.replace(/[^\s'"`;&|<>()=,]+/g, (token) => {
      if (token.startsWith("-")) return token;
      const rel = options.relative(path.resolve(invocation.cwd, token));
      if (rel === undefined) return token;
      if (path.isAbsolute(token)) return normaliseName(shownPath(rel));
      return options.known(rel) ? normaliseName(token) : token;
    });
  if ("script" in invocation) return rewrite(invocation.script);
  // A word is quoted when the target's word needed quotes, so a message reads as the call was written.
  return [invocation.file, ...invocation.args].map((w) => (/^[\w./:=@%+-]+$/.test(w) ? rewrite(w) : JSON.stringify(rewrite(w)))).join(" ");
}
