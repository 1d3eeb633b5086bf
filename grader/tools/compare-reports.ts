// `npm run compare-reports -- --against <commit>`: grades every submission the repository holds
// with the grader at an earlier commit and with this one, and says which reports differ, durations
// aside. A change to how the grader is built (how a story is made, what a grade reuses, how fast it
// runs) must grade every one of them the same: the reference, the untouched starter, Phase 1 done
// and the rest not started, and every fixture under grader/fixtures (buggy, correct, hostile and
// contained), each on the deliverables its test grades it on, the hostile ones with their test's
// shorter limits. The JSON report holds every verdict, story, replay command, picture and
// measurement; the scoreboard and the other formats are rendered from it. Not part of `npm test`:
// it takes about half an hour with two grades at a time.
//
//   npm run compare-reports -- --against <commit>            every submission
//   npm run compare-reports -- --against <commit> --group phase1 --group correct
//   npm run compare-reports -- --against <commit> --jobs 1 --keep <folder>
import { execa } from "execa";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT, SOLUTION_DIR } from "../paths.js";
import { readReport } from "../report/read-report.js";
import { composeTarget, HOSTILE_LIMITS, loadFixtures, rubricWithLimits } from "../test/support/grade.js";
import { comparableText, firstDifference } from "./compare/difference.js";
import { checkoutGrader, makePhase1Done } from "./bench/against.js";

/** A submission to grade with both graders: how its folder is made, and the arguments it is graded with. */
interface Submission {
  name: string;
  make: (folder: string) => unknown;
  args: string[];
}

const FIXTURES = path.join(REPO_ROOT, "grader/fixtures");

/** The submissions of `groups` (every group when empty), the repository's own three first. */
function submissions(groups: string[], hostileRubric: string): Submission[] {
  const own: Submission[] = [
    { name: "solution", make: (f) => fs.cpSync(SOLUTION_DIR, f, { recursive: true }), args: [] },
    { name: "starter", make: (f) => fs.cpSync(path.join(REPO_ROOT, "starter"), f, { recursive: true }), args: [] },
    { name: "phase1-done", make: makePhase1Done, args: [] },
  ];
  const all = fs.readdirSync(FIXTURES).filter((g) => fs.statSync(path.join(FIXTURES, g)).isDirectory());
  const unknown = groups.filter((g) => !all.includes(g) && !own.some((s) => s.name === g));
  if (unknown.length > 0) throw new Error(`--group expects one of ${[...own.map((s) => s.name), ...all].join(", ")}, got ${unknown.join(", ")}`);
  const fixtures = loadFixtures(FIXTURES, groups.length === 0 ? all : groups.filter((g) => all.includes(g))).map((f) => ({
    name: f.name,
    // The reference with the fixture's files on top, as its test grades it.
    make: (folder: string) => composeTarget(f.dir, { at: folder }),
    args: [...(f.name.startsWith("hostile/") ? ["--rubric", hostileRubric] : []), ...f.only],
  }));
  return [...own.filter((s) => groups.length === 0 || groups.includes(s.name)), ...fixtures];
}

/** What grading a submission with one grader gave: its comparable report, or why there was none. */
type Graded = { text: string } | { missing: string };

async function gradeWith(root: string, target: string, args: string[], json: string): Promise<Graded> {
  const run = await execa(process.execPath, [path.join(root, "grader/cli/launch.mjs"), "--target", target, "--json", json, "--no-cache", ...args], { cwd: path.dirname(target), reject: false, env: { NO_COLOR: "1" }, stdin: "ignore" });
  if (!fs.existsSync(json)) return { missing: `no report (exit code ${run.exitCode}): ${String(run.stderr).split("\n")[0] ?? ""}` };
  return { text: comparableText(readReport(json)) };
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { against: { type: "string" }, group: { type: "string", multiple: true, default: [] }, jobs: { type: "string", default: "2" }, keep: { type: "string" } } });
  if (!values.against) throw new Error("--against expects a commit of this repository, got nothing");
  const jobs = Number(values.jobs);
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs expects a whole number of at least 1, got ${JSON.stringify(values.jobs)}`);
  const work = values.keep ? path.resolve(values.keep) : fs.mkdtempSync(path.join(os.tmpdir(), "compare-reports-"));
  fs.mkdirSync(work, { recursive: true });
  const earlier = await checkoutGrader(work, values.against);
  // Stopped (Ctrl-C) or done, it leaves no checkout of the earlier grader behind: one removal, which
  // both wait on (grades in flight end with the signal, and the run then ends on its own too).
  let removal: Promise<void> | undefined;
  const cleanUp = () =>
    (removal ??= earlier.remove().catch((error: unknown) => console.error(`compare-reports: could not remove the earlier grader's checkout: ${(error as Error)?.message ?? error}`)).then(() => {
      if (!values.keep) fs.rmSync(work, { recursive: true, force: true });
    }));
  // `on`, not `once`: a process left with no listener of its own is ended by the signal at once
  // (execa's clean-up raises it again), before the removal is done.
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void cleanUp().then(() => process.exit(130)));
  let differ = 0;
  try {
    const list = submissions(values.group, rubricWithLimits(work, { callMs: HOSTILE_LIMITS.callMs, processMs: HOSTILE_LIMITS.processMs }));
    console.log(`Grading ${list.length} submissions with the grader at ${earlier.commit.slice(0, 7)} and with this one, ${jobs} at a time.`);
    const queue = [...list.entries()];
    const one = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [i, s] = next;
        const folder = path.join(work, "targets", s.name.replace(/\//g, "--"));
        fs.rmSync(folder, { recursive: true, force: true });
        await s.make(folder);
        const reports = path.join(work, "reports", s.name.replace(/\//g, "--"));
        fs.mkdirSync(reports, { recursive: true });
        // Each grader goes first in every other submission: the second may find the disk's caches warm.
        const sides = [["earlier", earlier.root], ["now", REPO_ROOT]] as const;
        const graded: Record<string, Graded> = {};
        for (const [side, root] of i % 2 === 0 ? sides : [...sides].reverse()) graded[side] = await gradeWith(root, folder, s.args, path.join(reports, `${side}.json`));
        const [a, b] = [graded.earlier!, graded.now!];
        const same = "text" in a && "text" in b && a.text === b.text;
        if (!same) differ++;
        console.log(`${same ? "same    " : "DIFFERS "} ${s.name}`);
        if ("missing" in a || "missing" in b) {
          for (const [side, g] of Object.entries(graded)) if ("missing" in g) console.log(`    ${side}: ${g.missing}`);
        } else if (!same) {
          const d = firstDifference(a.text, b.text)!;
          console.log(`    from line ${d.line} of the report (one key a line):`);
          for (const l of d.earlier) console.log(`    - ${l}`);
          for (const l of d.now) console.log(`    + ${l}`);
        }
        if (!values.keep) fs.rmSync(folder, { recursive: true, force: true });
      }
    };
    await Promise.all(Array.from({ length: jobs }, one));
    console.log(differ === 0 ? `Every report is the same.` : `${differ} of ${list.length} reports differ.`);
  } finally {
    await cleanUp();
  }
  return differ === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`compare-reports: ${(error as Error)?.message ?? error}`);
    process.exit(2);
  },
);
