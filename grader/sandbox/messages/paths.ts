// Paths as the target's messages show them: the same from run to run, whatever folder the
// grader made for a scenario. Used on both sides: by the runtime for what a call threw, by the
// checks for what a process printed.
import path from "node:path";

/** Shows paths inside the scenario folder as the student named them ("checkpoint.json"). */
export function scrubPaths(text: string, root: string): string {
  return text
    .split(path.join(root, "work") + path.sep).join("")
    .split(path.join(root, "tmp") + path.sep).join("$TMPDIR/")
    .split(root).join("<scenario>")
    // Random parts of temp names (UUIDs, long hex runs) differ from run to run: hide them. A run
    // is hidden whatever its characters: one random hex run in a few hundred is digits alone
    // (randomBytes(6) gives twelve with odds (10/16)^12), and a story must not change with it.
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b[0-9a-f]{10,}\b/gi, "*");
}
