// The states a load may return after crashes in a row (checks/phase1/crash-chain.ts): a killed
// write may or may not have taken effect, a load that returned fixes the state until the next
// write, and a write that returned fixes its own.
import { describe, expect, test } from "vitest";
import { stateDigest } from "../../lab/canonical.js";
import { allowedStates, stopped, type ChainStop, type Recorded } from "../checks/phase1/crash-chain.js";
import { storyOf } from "../report/finding-story.js";
import type { Expected } from "../grading/calls.js";
import type { CallResult } from "../sandbox/messages/scenario.js";

const returned = (state: unknown): CallResult => ({ status: "returned", value: { digest: stateDigest(state), preview: JSON.stringify(state), isNull: state === null } });
/** A process whose load (when `loaded`) is entries 1-2, its write entries 4-9, returning at 10. */
const process3 = (loaded?: CallResult): Recorded => ({ traceId: "t", trace: { entries: [], truncated: false }, start: 1, writeStart: loaded ? 4 : 1, writeEnd: 10, loaded, state: { step: 3 }, number: 3 });
const states = (allowed: Expected[] | ChainStop) => (stopped(allowed) ? storyOf(allowed) : allowed.map((a) => a.state));
const before: Expected[] = [{ label: "the old state", state: { step: 1 } }, { label: "the state process 2 was writing", state: { step: 2 } }];

describe("the states a load may return after a chain of crashes", () => {
  test("killed inside its load, a process changes nothing that was allowed", () => {
    expect(states(allowedStates(process3(returned({ step: 2 })), { at: 2 }, before))).toEqual([{ step: 1 }, { step: 2 }]);
  });

  test("killed inside its write after a load, the state it loaded or the one it was writing", () => {
    expect(states(allowedStates(process3(returned({ step: 2 })), { at: 6 }, before))).toEqual([{ step: 2 }, { step: 3 }]);
    expect(states(allowedStates(process3(returned({ step: 1 })), { at: 6, bytes: 3 }, before))).toEqual([{ step: 1 }, { step: 3 }]);
  });

  test("killed inside a write it made without loading first, any state allowed before, or the one it was writing", () => {
    expect(states(allowedStates(process3(), { at: 6 }, before))).toEqual([{ step: 1 }, { step: 2 }, { step: 3 }]);
  });

  test("cut after its write returned, only the state it wrote", () => {
    expect(states(allowedStates(process3(returned({ step: 2 })), { at: 11 }, before))).toEqual([{ step: 3 }]);
  });

  test("a load that returned a state that could not be there is the process's own failure", () => {
    expect(states(allowedStates(process3(returned({ step: 7 })), { at: 6 }, before))).toMatch(/^Process 3 then: loadCheckpoint returned \{"step":7\}; expected the old state/);
  });

  test("a load that gave what this code gives where nothing was written counts as no checkpoint", () => {
    const threw: CallResult = { status: "threw", error: { name: "Error", message: "nothing saved", code: undefined, notImplemented: false } };
    const none: Expected[] = [{ label: "", state: null, orAsAbsent: threw }, { label: "the state process 2 was writing", state: { step: 2 } }];
    expect(states(allowedStates(process3(threw), { at: 6 }, none))).toEqual([null, { step: 3 }]);
  });
});
