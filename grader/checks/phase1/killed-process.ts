// phase1.killed-process: the handout's own scenario with real processes. One process writes a
// checkpoint; the next is killed with SIGKILL in the middle of its first write (when a program it
// runs makes that write, as that program ends); the next one must load the old checkpoint, and
// then be able to write and load a new one.
import path from "node:path";
import { checkLoad, checkWrite, load, unfinishedProcess, write } from "../../grading/calls.js";
import { toldOutcome } from "../../grading/told.js";
import type { CheckDefinition } from "../../grading/harness.js";
import { normaliseName } from "../../crash/describe.js";
import { showState, stateOfSize } from "../../grading/states.js";
import { makeScenarioFolder } from "../../sandbox/supervisor/process-client.js";
import type { ScenarioStep } from "../../sandbox/messages/scenario.js";

export const killedProcess: CheckDefinition = {
  id: "phase1.killed-process",
  async run(ctx) {
    const old = stateOfSize(8 * 1024, ctx.seed);
    const next = stateOfSize(24 * 1024, ctx.seed + 1);
    const after = { resumed: true, note: "written after the crash" };
    const root = makeScenarioFolder(path.join(ctx.config.work, "killed-process"));
    const run = (steps: ScenarioStep[], kill?: { nthWrite: number; fraction: number }) =>
      ctx.process({
        bundle: ctx.bundles.checkpoint!,
        entry: "checkpoint.ts",
        targetDir: ctx.config.targetDir,
        root,
        steps,
        kill,
      });
    const story: string[] = [];
    const fail = (problem: string) => ctx.failed([...story, problem].join("\n"));

    const first = await run([write(old)]);
    const firstProblem = unfinishedProcess(first) ?? checkWrite(first.results![0]!, old);
    if (firstProblem) return fail(`Process 1 tried to write the old checkpoint: ${firstProblem}.`);
    story.push(`Process 1 wrote the old checkpoint ${showState(old, 60)}.`);

    const killed = await run([write(next)], { nthWrite: 1, fraction: 0.5 });
    ctx.countCrashStates(1);
    if (killed.signal !== "SIGKILL") {
      const how = unfinishedProcess(killed) ?? (killed.results && checkWrite(killed.results[0]!, next));
      if (!how) toldOutcome("atomicCheckpoint wrote no bytes to be killed in", { judged: true });
      return fail(`Process 2 called atomicCheckpoint(path, ${showState(next, 60)}) to be killed during its first write, but it ${how ? `failed first: ${how}` : "finished without writing any bytes, through Node's fs or a program it ran"}.`);
    }
    const torn = killed.torn;
    const file = JSON.stringify(normaliseName(torn?.file ?? "a file", { pids: [killed.pid] }));
    story.push(
      `Process 2 called atomicCheckpoint(path, ${showState(next, 60)}) and was killed with SIGKILL ` +
        (!torn ? "in the middle of its first write."
          // A SIGKILL ends the process, not the program it is waiting for: that one writes on to its end.
          : torn.command ? `while ${torn.api} wrote ${file}; the program went on to its end (a SIGKILL stops the process, not the programs it started).`
          : `in the middle of ${torn.api}(${file}): ${torn.written} of ${torn.of} bytes had reached the file.`),
    );

    const third = await run([load()]);
    const loadProblem = unfinishedProcess(third) ?? checkLoad(third.results![0]!, [{ label: "the old checkpoint", state: old }, { label: "the new one", state: next }], { name: "called loadCheckpoint, which" });
    if (loadProblem) return fail(`Process 3 then ${loadProblem}.`);
    story.push("Process 3 loaded the old checkpoint.");

    const fourth = await run([write(after), load()]);
    const writeProblem = unfinishedProcess(fourth) ?? checkWrite(fourth.results![0]!, after);
    if (writeProblem) return fail(`Process 4 tried to write a new checkpoint over what process 2 left: ${writeProblem}.`);
    const readBack = checkLoad(fourth.results![1]!, [{ label: "the state just written", state: after }]);
    if (readBack) return fail(`Process 4 wrote a new checkpoint ${showState(after, 60)} over what process 2 left, then loaded it: ${readBack}.`);

    const fifth = await run([load()]);
    const lastProblem = unfinishedProcess(fifth) ?? checkLoad(fifth.results![0]!, [{ label: "what process 4 wrote", state: after }]);
    if (lastProblem) return fail(`Process 4 wrote ${showState(after)}. Process 5 then: ${lastProblem}.`);
    return ctx.passed();
  },
};
