// What the sandbox serves to the grader's stand-ins (grader/stand-ins/) under STAND_IN_SPECIFIER,
// and to nothing else: the bundler resolves the specifier only in a stand-in that a variant put
// in place of a student's file (target/bundle.ts). It is what makes a stand-in correct without
// holding an answer: a save the crash model never cuts inside (crash/stand-in.ts), and the lab
// task's states as the grader knows them.
import type realFs from "node:fs";
import { STAND_IN_API } from "../../../crash/stand-in.js";
import { expectedStates, type LabState, type Task } from "../../../../lab/task.js";
import type { Recorder } from "../../interposition/recorder.js";

/** The specifier the stand-ins import their primitives from. */
export const STAND_IN_SPECIFIER = "@lab/stand-in";

/** The primitives, over the target's recording `fs` and the scenario's recorder. */
export function standInModule(fs: typeof realFs, recorder: () => Recorder | null): Record<string, unknown> {
  return Object.freeze({
    /** Writes `text` to `file` in place, as one whole operation of the crash model. */
    save(file: string, text: string): void {
      const rec = recorder();
      if (!rec) return fs.writeFileSync(file, text);
      rec.mark(STAND_IN_API);
      const outer = { depth: rec.depth, api: rec.api };
      // Its operations are told by the stand-in's name, and a real kill counts the save as one change.
      rec.depth++;
      rec.api = STAND_IN_API;
      rec.standInSave = { counted: false };
      try {
        fs.writeFileSync(file, text);
      } finally {
        Object.assign(rec, outer, { standInSave: null });
      }
    },
    /** What `file` holds, or undefined when there is none. */
    load(file: string): string | undefined {
      try {
        return fs.readFileSync(file, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
    },
    /** The lab task's state after `done` steps of a crash-free run of `task`, which must be the lab's. */
    labStateAfter(task: Task<LabState>, done: number): LabState {
      if (!task.id.startsWith("lab-task:")) throw new Error(`the grader's stand-in for runTask runs only the lab's own task, not ${JSON.stringify(task.id)}`);
      return expectedStates({ prompt: task.initialState().prompt, steps: task.steps })[done]!;
    },
  });
}
