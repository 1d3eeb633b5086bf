// The grader's own test suite. Grading itself runs through `npm run grade`.
// Five projects. `npm test` runs two of them, one after the other: `grader`, the tests that
// start no Node process, two files at a time (one per core), then `machine`, the tests that own
// the machine (they grade, start sandbox hosts or sessions, drive a real terminal or a browser),
// one file at a time. `npm run test:submissions` runs `submissions`, which grades every contained
// submission, grades one twice, and grades the solution and the starter on each Node version
// courses use, then `fixtures`, two grades at a time: every buggy, correct and hostile fixture
// (the printed commands of the first two replayed), and real grades' failures drawn (each kind of
// picture against its story, and the HTML reports in a browser). CI (`.ci/run`) runs
// these four. The fifth, `deliverable`, is the fast path for whoever changes one deliverable's
// checks: `npm run test:deliverable -- <id>` runs it on the deliverables it names (CI on one).
import { defineConfig } from "vitest/config";

const files = (names: string[]) => names.map((name) => `grader/test/${name}.test.ts`);

/**
 * The tests that grade the submissions under grader/fixtures. Those of project `fixtures` grade
 * two at a time: one at a time, their grades kept 1.2 to 1.6 of the 2 processors busy (a
 * start-up, a replay of one case, a hang waited out, a browser's page), and a grade's verdicts,
 * stories and pictures are the same on a busy machine. Those of `submissions` run one at a time:
 * they load the machine themselves, compare two grades, grade side by side inside (the regrade
 * workflow's shards, the contained fixtures' pairs), or were not measured two at a time.
 */
const FIXTURES = files(["buggy-fixtures", "hostile", "html-report-grades", "pictures-runs", "pictures-lanes", "pictures-diff", "pictures-faults"]);
const SUBMISSIONS = files(["contained", "reproducible", "check-deadline-under-load", "hang-diagnosis-under-load", "regrade-workflow", "gradebook-dashboard-page", "grade-on-node-versions"]);

/**
 * The tests that own the machine, one file at a time: each starts Node (a grade, a sandbox host,
 * a session, a tool run as a course runs it), a real terminal or a browser, which keeps both
 * processors busy or is timed. A `grader` test that starts one fails and names this list
 * (support/no-node-processes.ts).
 */
const MACHINE = files([
  // Grades through the command line, as a student or a course runs one.
  "check-deadline", "classroom50", "clock-steps", "export-student", "formats", "git-missing", "grade-batch", "graded-with", "gradescope", "gradescope-pictures", "html-report", "layout", "manifest", "manifest-docs", "manifest-errors", "not-started-probe", "pictures", "report-files", "shard", "solution-and-starter", "stories", "task-steps", "template-answers", "verdict-cache", "verdict-cache-comparison", "verdict-cache-mutations", "workflow", "regrade-clone",
  // Real terminals (script, tmux): the live progress and --watch.
  "progress-terminal", "watch",
  // Sandbox hosts and their limits, the recording fs against the kernel, real processes' ids and users.
  "call-limit", "closed-bindings", "command-checkpoints", "command-engine", "concurrency-engine", "git-engine", "git-plain-repository", "hang-diagnosis-process-state", "hang-diagnosis-sandbox", "identity", "limits", "process-pid", "processor-clock", "random-streams", "recording-fs", "recording-fs-kernel", "shared-recoveries", "tail", "model/probed-line", "model/shell-lines", "model/bench-processor-time",
  // A grade stopped by a signal.
  "grade-stopped",
]);

/** One deliverable's evidence at a time, on demand (project `deliverable`). */
const DELIVERABLE = files(["deliverable"]);

export default defineConfig({
  test: {
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // Each machine test grades a target or times a process, and a grade already uses both cores:
    // one test at a time there. The `grader` project sets its own.
    maxConcurrency: 1,
    fileParallelism: false,
    // The `grader` project's files run one per core; the other projects set fileParallelism off.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: "grader", include: ["grader/test/**/*.test.ts"], exclude: [...SUBMISSIONS, ...FIXTURES, ...MACHINE, ...DELIVERABLE], fileParallelism: true, setupFiles: ["grader/test/support/no-node-processes.ts"], sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: "machine", include: MACHINE, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: "submissions", include: SUBMISSIONS, sequence: { groupOrder: 2 } } },
      { extends: true, test: { name: "fixtures", include: FIXTURES, maxConcurrency: 2, sequence: { groupOrder: 3 } } },
      // One deliverable's fixtures, two grades at a time: `npm run test:deliverable -- <id>` (grader/tools/test-deliverable.ts).
      { extends: true, test: { name: "deliverable", include: DELIVERABLE, maxConcurrency: 2, sequence: { groupOrder: 4 } } },
    ],
  },
});
