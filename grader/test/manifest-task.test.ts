// The manifest's task (grader/rubric.json, "task"; grader/rubric-task.ts): a key it leaves out is
// the handout's, a task that cannot be run is refused with a line naming the key, and the checks'
// words and the documents (npm run readme-tables) say the task's numbers. Runs in a second.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import { DEFAULT_RUBRIC, loadRubric, rubricCheck } from "../rubric.js";
import { DEFAULT_TASK } from "../rubric-task.js";
import { DOCUMENTS, writtenFromManifest } from "../tools/readme-tables.js";

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "manifest-task-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

/** Loads the shipped manifest with `task` in place of its own (none when undefined), and with `edit` applied. */
const loadWithTask = (task: unknown, edit: (manifest: { deliverables: { checks: { title: string }[] }[] }) => void = () => {}) => {
  const manifest = JSON.parse(fs.readFileSync(DEFAULT_RUBRIC, "utf8"));
  if (task === undefined) delete manifest.task;
  else manifest.task = task;
  edit(manifest);
  const file = path.join(folder, "rubric.json");
  fs.writeFileSync(file, JSON.stringify(manifest, null, 2));
  return loadRubric(file);
};

describe("the manifest's task", () => {
  test("without a task block, the task is the handout's: 10 steps, sessions of 4, 4 and 2, killed entering step 6", () => {
    expect(DEFAULT_TASK).toEqual({ steps: 10, sessions: [4, 4, 2], killedAtStep: 6 });
    expect(loadWithTask(undefined).task).toEqual(DEFAULT_TASK);
    expect(loadWithTask({ steps: 12, sessions: [5, 5, 2] }).task).toEqual({ steps: 12, sessions: [5, 5, 2], killedAtStep: 6 });
  });

  test("the checks' titles and asks say the task's numbers where they name them", () => {
    const rubric = loadWithTask({ steps: 20, sessions: [7, 7, 6], killedAtStep: 13 });
    expect(rubricCheck(rubric, "phase2.killed-at-step-6")!.title).toBe("handout scenario: killed at step 13, resumes 13 to 20");
    expect(rubricCheck(rubric, "phase2.complete-run")!.asks).toBe("one run does steps 1 to 20, once each, in order, and returns `done`");
    expect(rubricCheck(rubric, "phase3.three-sessions")!.title).toBe("sessions of 7, 7 and 6 steps complete the task");
    expect(rubricCheck(rubric, "phase3.random-splits")!.asks).toBe("the same with other budgets that add up to 20");
    const words = JSON.stringify(rubric.deliverables);
    expect(words).not.toMatch(/\{task\./);
    // Braces that are not a key of the task are words: stretch-diff's asks shows `{}` as it is.
    expect(rubricCheck(rubric, "stretch-diff.first-step")!.asks).toContain("`{}`");
  });

  test("a task that cannot be run is refused with one line per mistake, each naming the key, what it is and what it must be", () => {
    const refused = (task: unknown, edit?: Parameters<typeof loadWithTask>[1]) => {
      try {
        loadWithTask(task, edit);
      } catch (error) {
        return (error as Error).message.split("\n").map((line) => line.replace(/^[^ ]*rubric\.json:\d+:\d+: /, ""));
      }
      throw new Error("the manifest was not refused");
    };
    expect(refused({ steps: 20, sessions: [7, 7, 5] })).toEqual([
      "task.sessions 7, 7, 5 add up to 19; they must add up to task.steps, 20",
    ]);
    // A key left out is named as the default it stands for.
    expect(refused({ steps: 5 })).toEqual([
      "task.sessions (by default) 4, 4, 2 add up to 10; they must add up to task.steps, 5",
      "task.killedAtStep (by default) is 6; it must be a step of the task, from 2 to task.steps, 5",
    ]);
    expect(refused({ steps: 10, killedAtStep: 11 })).toEqual(["task.killedAtStep is 11; it must be a step of the task, from 2 to task.steps, 10"]);
    expect(refused({ killedAtStep: 1 })).toEqual(["task.killedAtStep must be >= 2, got 1"]);
    expect(refused({ sessions: [5, 5, 0] })[0]).toMatch(/^task\.sessions\[2\] must be >= 1, got 0/);
    expect(refused({ sessions: [5, 5] })[0]).toMatch(/^task\.sessions must NOT have fewer than 3 items/);
    expect(refused({ steps: 10.5 })[0]).toMatch(/^task\.steps must be integer/);
    expect(refused({ step: 10 })).toEqual(['task has an unknown key "step"']);
    expect(refused(undefined, (m) => (m.deliverables[1]!.checks[0]!.title = "runs {task.step} steps"))).toEqual([
      "phase2.complete-run's title says {task.step}, which is not a key of the task: it may say {task.steps}, {task.sessions}, {task.killedAtStep}",
    ]);
  });

  test("README.md and HANDOUT.md, written from a manifest of 20 steps, sessions of 7, 7 and 6 and the kill at step 13, say those numbers and no longer the handout's", () => {
    const rubric = loadWithTask({ steps: 20, sessions: [7, 7, 6], killedAtStep: 13 });
    const [readme, handout] = ["README.md", "HANDOUT.md"].map((file) => writtenFromManifest(fs.readFileSync(path.join(REPO_ROOT, file), "utf8"), rubric, DOCUMENTS.find((d) => d.file === file)!));
    for (const said of ["steps: number;                             // 20", "returns `done`, `21` and the", "`runStep(13)`, and the next one must run steps 13 to 20, none of them twice.", "Three sessions of 7, 7 and 6 steps complete the task", '`{"status":"done","nextStep":21}`', "crash point in steps 1, 7, 14 and 20, and"])
      expect(handout, said).toContain(said);
    for (const gone of ["// 10", "`11`", "runStep(6)", "4, 4 and 2", '"nextStep":11', "1, 4, 7 and 10"]) expect(handout, gone).not.toContain(gone);
    expect(readme).toContain("crash point in the checkpoints of steps 1, 7, 14 and 20, and disk space");
    expect(readme).toContain("| `phase2.killed-at-step-6` | 3 | the handout's scenario with real processes: killed entering `runStep(13)`, resumed, 13 to 20 once each |");
  });
});
