// A deliverable's file that is missing or does not compile: one sentence naming the file as the
// student typed the target, with the command that restores a file missing from starter/; told
// once per deliverable; blocked checks only wait on it. And what a file may import, as HANDOUT.md
// says: Node's modules and the lab's installed packages compile, a package not installed does not.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import { sameCause } from "../report/report.js";
import { renderScoreboard } from "../report/terminal.js";
import { renderHtmlReport } from "../report/html/render.js";
import { wholeFileFailure, wholeFileStory } from "../report/whole-file.js";
import type { Report } from "../report/report.js";
import { bundleTarget } from "../target/bundle.js";
import { assertMatchesSchema } from "../schemas.js";

const STARTER = path.join(REPO_ROOT, "starter");
const COMPILE = 'does not compile: session.ts:8:40: Expected ")" but found ";"';

describe("the story of a file that cannot be graded", () => {
  test("names the file as the target was typed; a file missing from the repository's starter/ gets the git command that restores it, one missing elsewhere the folder it is missing from", () => {
    expect(wholeFileStory({ targetArg: "", targetDir: STARTER }, "session.ts", COMPILE)).toEqual({ story: `starter/session.ts ${COMPILE}` });
    expect(wholeFileStory({ targetArg: "", targetDir: STARTER }, "session.ts", "is missing")).toEqual({ story: "starter/session.ts is missing: restore it with git checkout -- starter/session.ts", restore: "git checkout -- starter/session.ts" });
    expect(wholeFileStory({ targetArg: "../starter", targetDir: STARTER }, "session.ts", "is missing")).toEqual({ story: "../starter/session.ts is missing: restore it with git checkout -- ../starter/session.ts", restore: "git checkout -- ../starter/session.ts" });
    expect(wholeFileStory({ targetArg: "work/mine/", targetDir: "/home/s/lab/work/mine" }, "session.ts", "is missing")).toEqual({ story: "session.ts is missing from work/mine/" });
    expect(wholeFileStory({ targetArg: "work/mine", targetDir: "/home/s/lab/work/mine" }, "runner.ts", "does not compile: runner.ts:1:1: x")).toEqual({ story: "work/mine/runner.ts does not compile: runner.ts:1:1: x" });
  });

  test("names no machine path: a target typed as an absolute path elsewhere (its label climbs to the root) is 'the target folder'", () => {
    expect(wholeFileStory({ targetArg: "../../tmp/target-x", targetDir: "/tmp/target-x" }, "session.ts", "is missing")).toEqual({ story: "session.ts is missing from the target folder" });
    expect(wholeFileStory({ targetArg: "../../tmp/target-x", targetDir: "/tmp/target-x" }, "session.ts", COMPILE)).toEqual({ story: `session.ts ${COMPILE}` });
  });
});

/** A report of one deliverable whose checks are `checks`. */
function reportOf(checks: Report["deliverables"][number]["checks"]): Report {
  const points = checks.reduce((n, c) => n + c.maxPoints, 0);
  return {
    schemaVersion: 6, target: "starter", seed: 1, score: 0, maxScore: points, bonus: 0, maxBonus: 0,
    deliverables: [{ id: "phase3", title: "Phase 3: three sessions", kind: "core", status: "graded", points: 0, maxPoints: points, checks, crashStates: 0, durationMs: 0 }],
    stats: { crashStates: 0, durationMs: 1000 },
  };
}

const STORY = `starter/session.ts ${COMPILE}`;
const failed = (id: string, message: string) => ({ id, title: `title of ${id}`, status: "failed" as const, points: 0, maxPoints: 5, message, replay: `npm run grade -- --only ${id} --seed 1`, crashStates: 0 });
/** A check that failed because its deliverable's files could not be compiled: its cause says so. */
const wholeFailed = (id: string, message: string) => ({ ...failed(id, message), cause: { wholeFile: true as const } });
const blocked = (id: string, on: string) => ({ id, title: `title of ${id}`, status: "blocked" as const, points: 0, maxPoints: 5, message: `Scored only once ${on} passes; fix that first.`, crashStates: 0 });

describe("a deliverable whose file cannot be graded", () => {
  const whole = reportOf([wholeFailed("phase3.a", STORY), wholeFailed("phase3.b", STORY), blocked("phase3.c", "phase3.a")]);

  test("is one line on the scoreboard at 80 columns, the story told once, with no check's own story or command", () => {
    const text = renderScoreboard(whole, { color: false, seconds: 1, width: 80 });
    const lines = text.split("\n");
    expect(lines[2]).toBe("Phase 3: three sessions                                            0/15");
    // The deliverable's one line, wrapped at 80 columns with a hanging indent, then the next deliverable's blank line.
    expect(lines.slice(3, 5)).toEqual(["  ✗ starter/session.ts does not compile: session.ts:8:40: Expected \")\" but", '    found ";"']);
    expect(lines[5]).toBe("");
    expect(text.split("does not compile").length).toBe(2);
    expect(text).not.toContain("Scored only once");
    expect(text).not.toContain("npm run grade -- --only");
  });

  test("is one note on the HTML page, its checks closed", () => {
    const html = renderHtmlReport(whole);
    expect(html).toContain(`<p class="note">✗ ${STORY.replace(/"/g, "&quot;")}. No check here could run without it.</p>`);
    expect(html).not.toMatch(/<details[^>]* open>/);
  });

  test("a file missing from starter/: the command that restores it (the cause's restore) on a line of its own at 80 columns, to paste whole", () => {
    const story = "starter/session.ts is missing: restore it with git checkout -- starter/session.ts";
    const restoring = { ...wholeFailed("phase3.a", story), cause: { wholeFile: true as const, restore: "git checkout -- starter/session.ts" } };
    const report = reportOf([restoring, blocked("phase3.c", "phase3.a")]);
    // A report that holds it is one the report's schema reads back (read-report.ts).
    expect(() => assertMatchesSchema("report", report, "report")).not.toThrow();
    const text = renderScoreboard(report, { color: false, seconds: 1, width: 80 });
    expect(text.split("\n").slice(3, 5)).toEqual(["  ✗ starter/session.ts is missing: restore it with", "    git checkout -- starter/session.ts"]);
  });

  test("a story that only reads like a restore is not split: the command comes from the cause, never from the words", () => {
    const story = "starter/session.ts is missing: restore it with git checkout -- starter/session.ts";
    const text = renderScoreboard(reportOf([wholeFailed("phase3.a", story), blocked("phase3.c", "phase3.a")]), { color: false, seconds: 1, width: 200 });
    expect(text.split("\n")[3]).toBe(`  ✗ ${story}`);
  });

  test("a later deliverable whose every check passed with the stand-in for it tells that note once, under its title", () => {
    const note = `Passed with the stand-in checkpoint.ts. With your own files:\nstarter/runner.ts ${COMPILE.replace("session.ts:8:40", "checkpoint.ts:41:32")}`;
    const passed = (id: string) => ({ id, title: `title of ${id}`, status: "passed" as const, points: 5, maxPoints: 5, message: note, crashStates: 0 });
    const text = renderScoreboard({ ...reportOf([passed("phase3.a"), passed("phase3.b"), passed("phase3.c")]), score: 15 }, { color: false, seconds: 1, width: 80 });
    expect(text.split("Passed with the stand-in").length).toBe(2);
    expect(text).not.toContain("The same story");
    expect(text.split("\n").slice(3, 9)).toEqual([
      "  Passed with the stand-in checkpoint.ts. With your own files:",
      "  starter/runner.ts does not compile: checkpoint.ts:41:32: Expected \")\" but",
      '    found ";"',
      "  ✓ title of phase3.a                                              5/5",
      "  ✓ title of phase3.b                                              5/5",
      "  ✓ title of phase3.c                                              5/5",
    ]);
  });

  test("is found from the checks' causes, not their words: not when one check failed otherwise, nor for a check's own story that reads like one", () => {
    expect(wholeFileFailure(reportOf([wholeFailed("phase3.a", STORY), failed("phase3.b", "Ran 3 sessions: step 1 ran twice.")]).deliverables[0]!)).toBeUndefined();
    expect(wholeFileFailure(reportOf([failed("phase3.a", "session.ts printed nothing")]).deliverables[0]!)).toBeUndefined();
    expect(wholeFileFailure(reportOf([failed("phase3.a", STORY), failed("phase3.b", STORY)]).deliverables[0]!)).toBeUndefined();
    expect(wholeFileFailure(reportOf([wholeFailed("phase3.a", "session.ts is missing from work/mine/")]).deliverables[0]!)).toBe("session.ts is missing from work/mine/");
    // Reworded, it is still found: the cause is what is read.
    expect(wholeFileFailure(reportOf([wholeFailed("phase3.a", "No session.ts in work/mine/"), wholeFailed("phase3.b", "No session.ts in work/mine/")]).deliverables[0]!)).toBe("No session.ts in work/mine/");
  });

  test("a blocked check's own failure whose files could not be compiled is its requirement's, whatever either story says", () => {
    const whole = { status: "failed" as const, cause: { wholeFile: true as const } };
    expect(sameCause(whole, whole)).toBe(true);
    expect(sameCause(whole, { status: "failed", cause: { errors: [{ name: "TypeError", message: "x" }] } })).toBe(false);
    expect(sameCause(whole, { status: "error", cause: { wholeFile: true } })).toBe(false);
  });
});

describe("what a file may import (HANDOUT.md)", () => {
  let folder: { path: string; cleanup: () => Promise<void> };
  beforeAll(async () => {
    folder = await dir({ unsafeCleanup: true, prefix: "imports-" });
  });
  afterAll(async () => {
    await folder?.cleanup();
  });

  const bundle = (source: string) => {
    fs.writeFileSync(path.join(folder.path, "checkpoint.ts"), source);
    return bundleTarget({ targetDir: folder.path, file: "checkpoint.ts", outFile: path.join(folder.path, "out.cjs") });
  };

  test("Node's modules and a package the lab installs (write-file-atomic) compile; a package not installed does not, and says which", async () => {
    expect((await bundle('import fs from "node:fs";\nimport { join } from "path";\nexport const f = () => fs.existsSync(join("a", "b"));\n')).ok).toBe(true);
    expect((await bundle('import writeFileAtomic from "write-file-atomic";\nexport const f = (p: string) => writeFileAtomic.sync(p, "x");\n')).ok).toBe(true);
    const missing = await bundle('import pad from "left-pad-not-installed";\nexport const f = () => pad("x", 3);\n');
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.problem).toMatch(/^does not compile: checkpoint\.ts:1:\d+: Could not resolve "left-pad-not-installed"/);
  });

  test("a missing file is 'is missing', which the story names", async () => {
    const gone = await bundleTarget({ targetDir: folder.path, file: "runner.ts", outFile: path.join(folder.path, "out.cjs") });
    expect(gone.ok ? null : gone.problem).toBe("is missing");
  });
});
