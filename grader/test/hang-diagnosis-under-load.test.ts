// The same code gets the same story on a quiet machine and on a busy one: a loadCheckpoint that
// spins while the file is absent (hostile/hang-when-absent) has its Phase 1 graded twice, the
// second time while eight processes per processor spin (the load of a full grade's other
// deliverables, and more: graded in full under it, a grade takes half an hour), and its
// phase1.absent story is the call's own both times ("did not return within 2 s"), never the
// silent host's. Each call is limited to 2 s (with the default 5 s the same holds, and each hang
// costs two and a half times as long), so a host's silence is 9 s (2 x callMs + 5 s). On a busy machine the call's
// 2 s of processor time take longer than that by the wall (a spinning call gets about a ninth of
// a processor); the host is then left to its call, because it is read as running and has used
// less than 9 s of processor time. A call truly blocked (hostile/blocked-in-syscall reads a FIFO
// nobody writes) still gets the blocked story under the same load.
import path from "node:path";
import { REPO_ROOT } from "../paths.js";
import type { Report } from "../report/report.js";
import { beforeAll, expect, test } from "vitest";
import { dir } from "tmp-promise";
import { checkOf, composeTarget, grade } from "./support/grade.js";
import { keepProcessorsBusy, rubricWithLimits } from "./support/deadline.js";

const HOSTILE = path.join(REPO_ROOT, "grader/fixtures/hostile");
const SPINS = "loadCheckpoint did not return within 2 s (is there a loop waiting for a file that is not there?)";

let rubric: string;
beforeAll(async () => {
  const folder = await dir({ unsafeCleanup: true });
  rubric = rubricWithLimits(folder.path, { callMs: 2_000 });
  return () => folder.cleanup();
});

/** Every story of a report that tells of a host that went silent, after its check's id. */
function silentHostStories(report: Report | null): string[] {
  return (report?.deliverables ?? []).flatMap((d) => d.checks.map((c) => `${c.id}: ${c.message ?? ""}`)).filter((m) => /stopped responding|kept running for/.test(m));
}

/** Grades `target` (full, or with `args`), with `perCore` spinning processes per processor while it runs when given; how long it took. */
async function timedGrade(target: string, { args = [], perCore }: { args?: string[]; perCore?: number }) {
  const busy = perCore ? keepProcessorsBusy(perCore) : null;
  const started = Date.now();
  try {
    const run = await grade(target, ["--rubric", rubric, ...args]);
    return { run, seconds: Math.round((Date.now() - started) / 1000) };
  } finally {
    await busy?.stop();
  }
}

test("a loadCheckpoint spinning while the file is absent gets the same phase1.absent story quiet and with eight spinning processes per processor, and no check of Phase 1 a silent host's story: the call did not return within 2 s", async () => {
  const target = await composeTarget(path.join(HOSTILE, "hang-when-absent"));
  try {
    const quiet = await timedGrade(target.path, { args: ["--only", "phase1"] });
    const loaded = await timedGrade(target.path, { args: ["--only", "phase1"], perCore: 8 });
    console.log(`hang-when-absent, Phase 1: ${quiet.seconds} s quiet, ${loaded.seconds} s with 8 spinning processes per processor`);
    const story = checkOf(quiet.run.report, "phase1.absent")?.message ?? "";
    expect(story).toContain(SPINS);
    expect(checkOf(loaded.run.report, "phase1.absent")?.message).toBe(story);
    expect(silentHostStories(quiet.run.report)).toEqual([]);
    expect(silentHostStories(loaded.run.report)).toEqual([]);
  } finally {
    await target.cleanup();
  }
}, 7_200_000);

test("a loadCheckpoint blocked reading a FIFO nobody writes gets the blocked story with eight spinning processes per processor", async () => {
  const target = await composeTarget(path.join(HOSTILE, "blocked-in-syscall"));
  try {
    const loaded = await timedGrade(target.path, { args: ["--only", "phase1.absent"], perCore: 8 });
    console.log(`blocked-in-syscall, phase1.absent: ${loaded.seconds} s with 8 spinning processes per processor`);
    expect(checkOf(loaded.run.report, "phase1.absent")?.message).toContain(
      "The process running your code stopped responding for 9 s during loadCheckpoint (is a call blocked waiting for something, such as a pipe, a lock or a child process?)",
    );
  } finally {
    await target.cleanup();
  }
}, 1_800_000);
