// phase1.stale-temp: whatever a crash inside atomicCheckpoint left behind (a temp file, a torn
// one), the next process can write the same state again, then a new one, and load each back.
import fc from "fast-check";
import { load, loadWrong, restart, write, writeWrong } from "../../grading/calls.js";
import type { CallWrong, Failure, RecoveryStep } from "../../contract/finding.js";
import type { CheckDefinition } from "../../grading/harness.js";
import { findCounterexample } from "../../grading/property.js";
import { jsonState, showState } from "../../grading/states.js";
import { quotedNamesNormalised } from "../../crash/names.js";
import { MAX_CUTS } from "../../crash/cuts.js";
import type { CallResult } from "../../sandbox/messages/scenario.js";
import { NONE, crashSetting, crashedPid, recordWindow, type OldState } from "./crash-window.js";

export const staleTemp: CheckDefinition = {
  id: "phase1.stale-temp",
  async run(ctx) {
    const box = ctx.sandbox();
    const found = await findCounterexample(
      ctx,
      fc.record({ old: fc.oneof(fc.constant<OldState>(NONE), jsonState()), next: jsonState(), after: jsonState() }),
      async ({ old, next, after }): Promise<Failure | null> => {
        // Each crash state's next process writes twice and loads four times: a quarter of
        // phase1.crash-safety's crash states per write keeps a save of many small pieces in time.
        const w = await recordWindow(box, old, next, [], { maxCuts: MAX_CUTS / 4 });
        if (typeof w === "string") return `Could not record a write to crash: ${w}`;
        // The recovering process loads first (its result is judged by phase1.crash-safety), saves
        // another state, then the state it was saving when it crashed (a redone step saves the same state).
        const steps = [load(), write(after), load(), write(next), load(), restart, load()];
        // The next process gets the crashed one's process id, as a restarted container's PID 1 does.
        const outcomes = await box.runMany("checkpoint", w.traceId, w.cuts, steps, { pid: crashedPid(w.trace) });
        for (const [i, outcome] of outcomes.entries()) {
          const results = outcome.results.map(sameNames);
          const first = [{ label: "the state just written", state: after }];
          const again = [{ label: "the state just written", state: next }];
          // The calls of the next process, each judged in turn: the first that went wrong is told, with how far it got.
          const judged: [RecoveryStep, () => CallWrong | null][] = [
            ["write-new", () => writeWrong(results[1]!, after)],
            ["load-new", () => loadWrong(results[2]!, first)],
            ["write-again", () => writeWrong(results[3]!, next)],
            ["load-again", () => loadWrong(results[4]!, again)],
            ["load-after-restart", () => loadWrong(results[5]!, again)],
          ];
          for (const [reached, judge] of judged) {
            const wrong = judge();
            if (!wrong) continue;
            const setting = await crashSetting(box, w, w.cuts[i]!, { draw: (p) => ctx.draw(p) });
            return { setting, when: { kind: "recovering", reached, wrote: showState(after, 60), again: showState(next, 60) }, wrong };
          }
        }
        return null;
      },
      { numRuns: 15, examples: [{ old: { step: 1 }, next: { step: 2 }, after: { step: 3 } }, { old: NONE, next: "a", after: "b" }] },
    );
    if (!found) return ctx.passed();
    return ctx.failed(found.story, found.path);
  },
};

/**
 * `r` with the file names its error quotes spelt as the crash story spells them
 * ("checkpoint.json.*.tmp"): the next process has the crashed one's id, which the story hides, so
 * that one story names one file one way.
 */
function sameNames(r: CallResult): CallResult {
  return r.status === "threw" ? { ...r, error: { ...r.error, message: quotedNamesNormalised(r.error.message) } } : r;
}
