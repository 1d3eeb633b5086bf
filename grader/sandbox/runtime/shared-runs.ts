// The recoveries of one batch of crash states that share a run: a crash state whose disk holds,
// wherever an earlier recovery of the batch looked, what that recovery's disk held, takes its
// reply (see crash/shared-recovery.ts). A recovery whose footprint is not known (it ran a
// program, read the repository's history, met a disk fault, timed out) is shared with none.
import type { Cut, Trace } from "../../crash/model.js";
import { footprintKeys, shareable, type Footprint } from "../../crash/shared-recovery.js";
import type { ManyReply } from "../messages/host.js";

/** One footprint met in the batch: the key of each crash state for it, and the replies by key. */
interface Known {
  text: string;
  keys: (string | null)[];
  replies: Map<string, ManyReply>;
}

/** The shared replies of one batch: crash state `i` is the batch's `cuts[i]` of `trace`. */
export class SharedRuns {
  private readonly known: Known[] = [];

  private constructor(
    private readonly trace: Trace,
    private readonly cuts: readonly Cut[],
  ) {}

  /** Sharing for a batch over `trace`'s `cuts` on the disk `base` left, or null when none of them can share. */
  static over(trace: Trace, cuts: readonly Cut[], base: readonly Trace[]): SharedRuns | null {
    return shareable([...base, trace]) ? new SharedRuns(trace, cuts) : null;
  }

  /** The reply an earlier recovery gave that crash state `i` shares, or undefined. */
  replyFor(i: number): ManyReply | undefined {
    for (const k of this.known) {
      const key = k.keys[i];
      const reply = key == null ? undefined : k.replies.get(key);
      if (reply) return reply;
    }
    return undefined;
  }

  /** Keeps crash state `i`'s reply for those that share it, when its recovery's footprint is known. */
  remember(i: number, footprint: Footprint | null, reply: ManyReply): void {
    if (!footprint || reply.git || reply.results.some((r) => r.status === "timed-out")) return;
    const text = JSON.stringify(footprint);
    let k = this.known.find((x) => x.text === text);
    if (!k) this.known.push((k = { text, keys: footprintKeys(this.trace, this.cuts, footprint), replies: new Map() }));
    const key = k.keys[i];
    if (key != null) k.replies.set(key, reply);
  }
}
