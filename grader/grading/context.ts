// What a check works with: its seed, its sandboxes, and the words for its verdict.
import { createHash } from "node:crypto";
import path from "node:path";
import { Sandbox } from "../sandbox/client.js";
import type { GradeConfig } from "./config.js";
import type { Variant } from "./prepare.js";
import type { Verdict } from "./verdict.js";

/** Time for one request to a sandbox; generous, so a correct target never meets it. */
const REQUEST_TIMEOUT_MS = 30_000;
const PER_CRASH_STATE_MS = 250;

export class CheckContext {
  private readonly sandboxes: Sandbox[] = [];
  private extraCrashStates = 0;

  constructor(
    readonly config: GradeConfig,
    readonly checkId: string,
    /** The files this run of the check uses (null when the target could not be compiled). */
    readonly variant: Variant | null,
  ) {}

  /** Bundle file per module name, for this variant. */
  get bundles(): Record<string, string> {
    return this.variant?.bundles ?? {};
  }

  /** This check's own seed: the grade's seed mixed with the check id, so `--only` repeats a full run. */
  get seed(): number {
    return createHash("sha256").update(`${this.config.seed}:${this.checkId}`).digest().readUInt32BE(0) & 0x7fffffff;
  }

  /** A new sandbox host for the target's modules; closed when the check ends. */
  sandbox(): Sandbox {
    const work = path.join(this.config.work, `${this.checkId}-${this.sandboxes.length + 1}`);
    const box = new Sandbox({
      hostFile: this.config.hostFile,
      config: { modules: this.bundles, targetDir: this.config.targetDir, work, tmpBase: this.config.tmpBase && path.join(this.config.tmpBase, path.basename(work)) },
      timeoutMs: REQUEST_TIMEOUT_MS,
      perCaseMs: PER_CRASH_STATE_MS,
    });
    this.sandboxes.push(box);
    return box;
  }

  /** Counts crash states checked outside a sandbox (real killed processes). */
  countCrashStates(n: number): void {
    this.extraCrashStates += n;
  }

  get crashStates(): number {
    return this.sandboxes.reduce((n, s) => n + s.crashStates, this.extraCrashStates);
  }

  /** The command that replays this check, or exactly one counterexample of it. */
  replayCommand(fastCheckPath?: string): string {
    const parts = ["npm run grade --"];
    if (this.config.targetArg) parts.push(`--target ${this.config.targetArg}`);
    parts.push(`--only ${this.checkId}`, `--seed ${this.config.seed}`);
    if (fastCheckPath) parts.push(`--replay ${fastCheckPath}`);
    return parts.join(" ");
  }

  failed(message: string, fastCheckPath?: string): Verdict {
    return { status: "failed", message, replay: this.replayCommand(fastCheckPath) };
  }

  passed(note?: string): Verdict {
    return { status: "passed", message: note };
  }

  async close(): Promise<void> {
    await Promise.all(this.sandboxes.map((s) => s.close()));
  }
}
