// phase1.killed-process: the handout's own scenario with real processes. One process writes a
// checkpoint; the next is killed with SIGKILL in the middle of its first write (when a program it
// runs makes that write, as that program ends); the next one must load the old checkpoint, and
// then be able to write and load a new one.
import path from "node:path";
import { load, loadWrong, processWrong, write, writeWrong } from "../../grading/calls.js";
import type { KilledProcesses, Wrong } from "../../contract/finding.js";
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
    const shown = { old: showState(old, 60), next: showState(next, 60), after: showState(after, 60) };
    let torn: KilledProcesses["torn"] = null;
    const fail = (at: KilledProcesses["at"], wrong: Wrong) => ctx.failed({ setting: { kind: "killed-processes", at, ...shown, torn }, wrong });

    const first = await run([write(old)]);
    const firstWrong = processWrong(first) ?? writeWrong(first.results![0]!, old);
    if (firstWrong) return fail("write-old", firstWrong);

    const killed = await run([write(next)], { nthWrite: 1, fraction: 0.5 });
    ctx.countCrashStates(1);
    if (killed.signal !== "SIGKILL") return fail("kill-in-write", processWrong(killed) ?? (killed.results && writeWrong(killed.results[0]!, next)) ?? { kind: "no-write-to-kill" });
    if (killed.torn) torn = { ...killed.torn, shownFile: normaliseName(killed.torn.file ?? "a file", { pids: [killed.pid] }) };

    const third = await run([load()]);
    const recovery = processWrong(third) ?? loadWrong(third.results![0]!, [{ label: "the old checkpoint", state: old }, { label: "the new one", state: next }], { name: "called loadCheckpoint, which" });
    if (recovery) return fail("load-after-kill", recovery);

    const fourth = await run([write(after), load()]);
    const overwrite = processWrong(fourth) ?? writeWrong(fourth.results![0]!, after);
    if (overwrite) return fail("write-new", overwrite);
    const readBack = loadWrong(fourth.results![1]!, [{ label: "the state just written", state: after }]);
    if (readBack) return fail("load-new", readBack);

    const fifth = await run([load()]);
    const lastWrong = processWrong(fifth) ?? loadWrong(fifth.results![0]!, [{ label: "what process 4 wrote", state: after }]);
    if (lastWrong) return fail("load-in-next", lastWrong);
    return ctx.passed();
  },
};
