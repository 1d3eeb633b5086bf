// What the describe-cut tests share: the state an atomic checkpoint writes, the temp name it writes
// it under, and the recording of a target's own calls in a scenario folder.
import path from "node:path";
import type { Trace } from "../../crash/model.js";
import { Recorder } from "../../sandbox/interposition/recorder.js";
import { layScenario, recordingFs } from "./model-fs.js";

/** The new state a checkpoint saves: 40 bytes. */
export const NEW = '{"step":2,"notes":"the new state, 40 b"}';
/** A temp name as an atomic checkpoint makes one (a student reads it hidden, as on disk listings). */
export const TMP = ".checkpoint.json.4026.a1b2c3d4.tmp";

/** recordCalls over scenario folders made in `scratch`, the calling test file's scratchFolder(). */
export function callRecorder(scratch: { fresh: (name?: string) => string }) {
  /** Records `calls` made with the recording fs in a scenario's work folder, after a mark "call:atomicCheckpoint"; the trace and where the call starts. */
  return function recordCalls(calls: (fs: typeof import("node:fs"), w: (rel: string) => string) => void, before?: (w: (rel: string) => string) => void): { trace: Trace; start: number } {
    const root = layScenario(scratch.fresh("calls"));
    const w = (rel: string) => path.join(root, "work", rel);
    before?.(w);
    const rec = new Recorder(root);
    rec.mark("call:atomicCheckpoint");
    calls(recordingFs(rec).fs, w);
    return { trace: rec.trace(), start: 1 };
  };
}
