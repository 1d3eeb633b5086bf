// A failure's picture in a real grade: the JSON report carries it beside the story, and both say
// the same crash: the call right before the marker is the one the story was killed after, and
// the files drawn are those the story lists, with their sizes; the scoreboard draws it.
import { afterAll, describe, expect, test } from "vitest";
import path from "node:path";
import { REPO_ROOT } from "../paths.js";
import { checkOf, composeTarget, grade } from "./support/grade.js";

const targets: { cleanup: () => Promise<void> }[] = [];
afterAll(() => Promise.all(targets.map((t) => t.cleanup())));

/** "checkpoint.json (0 bytes" for each file the picture drew, as the story lists it. */
const listed = (files: { name: string; bytes: number }[]) => files.map((f) => `${f.name} (${f.bytes} byte${f.bytes === 1 ? "" : "s"}`);

describe("pictures of failures in a grade", () => {
  test.each([
    { fixture: "phase1/write-in-place", check: "phase1.crash-safety", how: "killed", after: "On disk after the crash: " },
    { fixture: "power-loss/no-fsync", check: "power-loss.never-torn", how: "power cut", after: "On disk after the power cut: " },
  ])("$fixture, $check: the picture's last call before the crash and its files are those of the story, and the scoreboard draws it above the story", async ({ fixture, check, how, after }) => {
    const target = await composeTarget(path.join(REPO_ROOT, "grader/fixtures", fixture));
    targets.push(target);
    const run = await grade(target.path, ["--only", check]);
    const failed = checkOf(run.report, check)!;
    expect(failed.status).toBe("failed");
    const picture = failed.picture!;
    if (picture.kind !== "calls") throw new Error(`expected a picture of calls, got one of ${picture.kind}`);
    expect(picture.cut.how).toBe(how);
    const story = failed.message!.replace(/\s+/g, " ");
    // The story is told as "killed right after <call>(<file>) ..." or "... right after it returned".
    const before = picture.ops[picture.cut.afterOps - 1]!.what.split(": ")[0]!;
    if (picture.cut.afterOps < picture.ops.length) expect(story).toContain(`right after ${before}`);
    else expect(story).toContain("right after it returned");
    const listing = story.slice(story.indexOf(after) + after.length);
    for (const file of listed(picture.after)) expect(listing).toContain(file);
    expect(listing.split(/\), /).length).toBe(Math.max(1, picture.after.length));
    const board = run.stdout;
    const drawnAt = board.indexOf(`Calls of ${picture.call}`);
    expect(drawnAt).toBeGreaterThan(board.indexOf(check));
    expect(drawnAt).toBeLessThan(board.indexOf(after.trim()));
    expect(board.slice(drawnAt)).toContain("✂");
  });

  test("a replay of a drawn failure draws it again above its story", async () => {
    const target = await composeTarget(path.join(REPO_ROOT, "grader/fixtures/phase1/write-in-place"));
    targets.push(target);
    const first = await grade(target.path, ["--only", "phase1.crash-safety"]);
    const { picture, replay } = checkOf(first.report, "phase1.crash-safety")!;
    if (picture?.kind !== "calls") throw new Error(`expected a picture of calls, got ${picture?.kind ?? "none"}`);
    const args = replay!.replace(/^npm run grade -- --target \S+ /, "").split(" ");
    const replayed = await grade(target.path, args);
    expect(replayed.exitCode).toBe(1);
    const drawnAt = replayed.stdout.indexOf(`Calls of ${picture.call}:`);
    expect(drawnAt).toBeGreaterThan(replayed.stdout.indexOf("it still fails"));
    expect(drawnAt).toBeLessThan(replayed.stdout.indexOf("On disk after the crash"));
    expect(replayed.stdout.slice(drawnAt)).toContain("✂ killed here");
  });
});
