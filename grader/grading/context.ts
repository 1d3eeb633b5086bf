// What a check works with: its seed, its sandboxes, and the words for its verdict.
import { createHash } from "node:crypto";
import path from "node:path";
import { Sandbox, checkStopped } from "../sandbox/supervisor/host-client.js";
import type { Limits } from "../sandbox/messages/limits.js";
import { runProcess, type ProcessRequest, type ProcessOutcome } from "../sandbox/supervisor/process-client.js";
import { UserLease } from "../sandbox/identity/target-user.js";
import { checkCommand, type GradeConfig } from "./config.js";
import type { Variant } from "./prepare.js";
import { eachErrorOnce, type Cause, type Verdict } from "../contract/verdict.js";
import { storyOf } from "../report/finding-story.js";
import { causeOf } from "./finding-cause.js";
import type { Failure } from "../contract/finding.js";
import { forget, judgedOutcome, nothingTold, type Told } from "./told.js";
import type { Picture } from "../contract/picture.js";
import type { Counted, ProcessorClock } from "../sandbox/supervisor/processor-clock.js";

let sandboxCount = 0;

export class CheckContext {
  private readonly sandboxes: Sandbox[] = [];
  private readonly owned: { close(): Promise<void> }[] = [];
  private extraCrashStates = 0;
  /** The user of each folder real processes run over, and how many run there now. */
  private readonly folderUsers = new Map<string, { lease: UserLease; running: number }>();
  private readonly abandon = new AbortController();
  /**
   * Set once the target met a limit (a call or process timed out, a process died): the check has
   * failed, and a property stops trying new cases, so each limit costs its time once.
   */
  limitHit = false;

  constructor(
    readonly config: GradeConfig,
    readonly checkId: string,
    /** The files this run of the check uses (null when the target could not be compiled). */
    readonly variant: Variant | null,
    /** The check's clock, which counts the time of the processes that run the target's code (its deadline reads it). */
    private readonly clock?: ProcessorClock,
  ) {}

  /** Counts a process of the target's on the check's clock until the returned function is called. */
  count(it: Counted): () => void {
    return this.clock?.count(it) ?? (() => {});
  }

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
    // Unique in the grade: a host killed for its target's sake leaves its folders behind.
    const work = path.join(this.config.work, `${this.checkId}-${++sandboxCount}`);
    const lease = UserLease.of(this.config.identity);
    const box = new Sandbox({
      lease,
      hostFile: this.config.hostFile,
      config: {
        modules: Object.fromEntries(Object.entries(this.bundles).map(([name, file]) => [name, lease.bundle(file, path.join(work, "bundles"))])),
        targetDir: this.config.targetDir,
        work,
        tmpBase: this.config.tmpBase && path.join(this.config.tmpBase, path.basename(work)),
        callMs: this.limits.callMs,
        seed: this.seed,
        ownUser: lease.user !== null,
        labSteps: this.config.rubric.task.steps,
      },
      limits: this.limits,
      onLimit: () => (this.limitHit = true),
      clock: this.clock,
    });
    this.sandboxes.push(box);
    // A check abandoned at its deadline that still runs gets a sandbox that refuses every request.
    if (this.abandon.signal.aborted) void box.retire();
    return box;
  }

  get limits(): Limits {
    return this.config.rubric.limits;
  }

  /** Runs the target in a real process of its own, under the limits; killed if the check is abandoned. */
  async process(req: Omit<ProcessRequest, "limits" | "signal">): Promise<ProcessOutcome> {
    if (this.abandon.signal.aborted) throw checkStopped();
    // Processes over one folder are one user's (a session leaves files the next one rewrites).
    let folder = this.folderUsers.get(req.root);
    if (!folder) this.folderUsers.set(req.root, (folder = { lease: UserLease.of(this.config.identity), running: 0 }));
    folder.lease.handOver(req.root);
    folder.running++;
    let outcome: ProcessOutcome;
    try {
      const bundle = folder.lease.bundle(req.bundle, `${req.root}-bundles`);
      outcome = await runProcess(this.config.hostFile, { ...req, bundle, labSteps: this.config.rubric.task.steps, limits: this.limits, signal: this.abandon.signal, lease: folder.lease, clock: this.clock });
    } finally {
      // Once none runs there, whatever they left running (a daemon) ends.
      if (--folder.running === 0) folder.lease.sweep();
    }
    if (outcome.timedOut || outcome.results?.some((r) => r.status === "timed-out")) this.limitHit = true;
    return outcome;
  }

  /** Closes `thing` (a process of the target's) when the check ends or is abandoned. */
  own<T extends { close(): Promise<void> }>(thing: T): T {
    if (this.abandon.signal.aborted) void thing.close();
    else this.owned.push(thing);
    return thing;
  }

  /** A new case of a property begins: each sandbox counts its traces and process ids from the case's start (see Sandbox.beginCase). */
  beginCase(): void {
    this.picture = undefined;
    forget(this.told);
    for (const box of this.sandboxes) box.beginCase();
  }

  /** Whether a `--replay` path was given to one of this check's properties. */
  replayed = false;

  /** Whether one of them walked it (the path named that property, see findCounterexample's `part`). */
  replayWalked = false;

  /** Counts crash states checked outside a sandbox (real killed processes). */
  countCrashStates(n: number): void {
    this.extraCrashStates += n;
  }

  get crashStates(): number {
    return this.sandboxes.reduce((n, s) => n + s.crashStates, this.extraCrashStates);
  }

  /** The command that replays this check, or exactly one counterexample of it. */
  replayCommand(fastCheckPath?: string): string {
    return checkCommand(this.config, this.checkId, fastCheckPath);
  }

  /** How to draw the picture of the story being told now, given where the story is told; a new case forgets it. */
  private picture: (() => Picture | null) | undefined;

  /**
   * Says how to draw the picture of the failure whose story is being told. It is drawn only if
   * that story becomes the verdict: the stories told while fast-check shrinks are not drawn.
   */
  draw(picture: () => Picture | null): void {
    this.picture = picture;
  }

  /** What the stories of this case told so far (told.ts records it while the check runs); a new case forgets it. */
  readonly told: Told = nothingTold();

  /**
   * A failure with its story (rendered from its Finding, or told as text), the command that
   * replays it, the picture drawn with the story, if any, and what it came down to: the errors it
   * tells and its outcome, from the Finding, or as the story's telling recorded them (told.ts).
   */
  failed(failure: Failure, fastCheckPath?: string, cause: Cause = {}): Verdict {
    const picture = this.picture?.();
    const found = typeof failure === "string" ? {} : causeOf(failure);
    const errors = eachErrorOnce([...this.told.errors, ...(found.errors ?? [])]);
    const outcome = found.outcome ?? judgedOutcome(this.told);
    const told: Cause = { ...(errors.length > 0 ? { errors } : {}), ...(outcome ? { outcome } : {}), ...cause };
    const message = typeof failure === "string" ? failure : storyOf(failure);
    return { status: "failed", message, replay: this.replayCommand(fastCheckPath), ...(picture ? { picture } : {}), ...(Object.keys(told).length > 0 ? { cause: told } : {}) };
  }

  /** A failure in the check's own run with no crash: the run the check it waits on judges (its story is not told twice). */
  failedWithoutCrash(failure: Failure): Verdict {
    return this.failed(failure, undefined, { crashFreeRun: true });
  }

  passed(note?: string): Verdict {
    return { status: "passed", message: note };
  }

  async close(): Promise<void> {
    this.abandon.abort();
    await Promise.all([...this.sandboxes.map((s) => s.retire()), ...this.owned.map((o) => o.close())]);
    for (const { lease } of this.folderUsers.values()) lease.release();
  }
}
