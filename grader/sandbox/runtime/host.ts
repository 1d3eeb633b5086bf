// Serve mode's host: the child that runs the target's code for the grader's requests (see
// serve.ts). The grader sends it scenarios (calls into fresh module instances, with the
// file-system calls recorded) and crash states to rebuild and recover from. It judges nothing:
// it reports what happened.
import path from "node:path";
import { replay } from "../../crash/replay.js";
import type { Cut, Trace } from "../../crash/model.js";
import { diskKeys } from "../../crash/same-disk.js";
import { SharedRuns } from "./shared-runs.js";
import { CompiledTarget } from "./target/instance.js";
import { CallTimedOut, nextLimit, runsAgain, withTimeLimit } from "./target/time-limit.js";
import { listDisk } from "./disk.js";
import { runScenarioSteps } from "./target/scenario-steps.js";
import type { CallResult } from "../messages/scenario.js";
import type { HostConfig, ManyReply, Request, RunReply, Scenario } from "../messages/host.js";
import { microtasksQueued, watchMicrotasks } from "./target/microtasks.js";
import { Recorder } from "../interposition/recorder.js";
import { PendingOps, createRecordingFs } from "../interposition/recording-fs.js";
import { createRecordingChildProcess } from "../interposition/recording-exec.js";
import { readGitHistory } from "../git/git-history.js";
import { killOthersOfMyUser } from "../identity/processes.js";
import { ScenarioFolder } from "./scenario-folder.js";
import { processSeed } from "./target/random-streams.js";
import { LAB_SPECIFIER, labModule } from "./target/lab-module.js";
import { STAND_IN_SPECIFIER, standInModule } from "./target/stand-in-module.js";

/** What a run reports beyond its calls' outcomes: its trace, kept for crash states (`record`), and a listing of the disk it left (`listDisk`). */
interface RunOptions {
  record?: boolean;
  listDisk?: boolean;
}

/** Runs scenarios inside one host process; keeps compiled modules and traces between requests. */
export class Host {
  private readonly compiled = new Map<string, CompiledTarget>();
  private readonly traces = new Map<string, Trace>();
  private recorder: Recorder | null = null;
  private readonly pending = new PendingOps();
  readonly fs = createRecordingFs(() => this.recorder, this.pending);
  /** The call the target is in and its time limit, for `progress` while it waits for a program it runs. */
  private currentCall = "";
  private currentLimitMs = 0;
  // Every program the target runs is progress: a call that waits for many of them (a git-backed
  // runner's ten commits) is not a call stuck in a system call.
  private readonly childProcess = createRecordingChildProcess(() => this.recorder, { ended: () => this.progress(this.currentCall, this.currentLimitMs) });
  private nextPid = 4001;
  /** The next process id when the first case of a property began: every case starts from it again. */
  private casePid: number | null = null;
  private currentPid = 0;
  private readonly lab = labModule((effect) => this.recorder?.push({ kind: "effect", ...effect }), () => this.currentPid);
  private readonly standIn = standInModule(this.fs, () => this.recorder);
  private readonly folder: ScenarioFolder;
  /** The scenario whose folder is open, and what to put back when it closes. */
  private current: { root: string; savedCwd: string; savedTmp: string | undefined; savedHome: string | undefined } | null = null;
  /**
   * Tells the grader that the host is still making progress: the call it is in, and that call's
   * time limit (a call tried again on a busy machine has a longer one). Set per request by the serving loop.
   */
  progress: (call: string, limitMs: number) => void = () => {};

  constructor(readonly config: HostConfig) {
    this.folder = new ScenarioFolder(config.work, config.tmpBase);
  }

  async handle(req: Request): Promise<unknown> {
    // A case of a property starts its processes' ids where every case does, so a replay of that
    // case alone gives them the ids (and random streams) they had in the grade.
    if ((req.type === "run" || req.type === "runMany") && req.newCase) this.nextPid = this.casePid ??= this.nextPid;
    switch (req.type) {
      case "ping":
        return "pong";
      case "putTrace":
        this.traces.set(req.traceId, req.trace);
        return null;
      case "run":
        return this.run(req.module, req.scenario, { record: req.record, listDisk: req.listDisk });
      case "runMany":
        return this.runOncePerDisk(req.module, req.traceId, req.cuts, {
          scenarioAt: (cut) => ({ from: [...req.base, { traceId: req.traceId, cut, key: req.traceKey }], steps: req.steps, pid: req.pid, inspectGit: req.inspectGit }),
          base: req.base.map((p) => this.trace(p.traceId)),
          share: req.inspectGit === undefined && this.config.shareRecoveries !== false,
        });
    }
  }

  /**
   * Recovers from the crash state of each cut of one trace, once per disk: cuts that leave the
   * same disk (see crash/same-disk.ts) share the reply of the first of them, and with `share`, a
   * crash state takes the reply of an earlier one whose disk holds the same wherever that
   * recovery looked (see shared-runs.ts).
   */
  private async runOncePerDisk(module: string, traceId: string, cuts: Cut[], batch: { scenarioAt: (cut: Cut) => Scenario; base: Trace[]; share: boolean }): Promise<ManyReply[]> {
    const trace = this.trace(traceId);
    const keys = diskKeys(trace, cuts);
    const firstOf = new Map<string, number>();
    const unique: Scenario[] = [];
    const uniqueCuts: Cut[] = [];
    const ran = cuts.map((cut, i) => {
      const key = keys[i] ?? null;
      const seen = key === null ? undefined : firstOf.get(key);
      if (seen !== undefined) return seen;
      if (key !== null) firstOf.set(key, unique.length);
      unique.push(batch.scenarioAt(cut));
      uniqueCuts.push(cut);
      return unique.length - 1;
    });
    const replies = await this.runMany(module, unique, batch.share ? SharedRuns.over(trace, uniqueCuts, batch.base) : null);
    // A batch that stopped at a recovery that timed out ends at the first cut it did not run.
    const shown = ran.findIndex((u) => u >= replies.length);
    return (shown < 0 ? ran : ran.slice(0, shown)).map((u) => replies[u]!);
  }

  /** Recovers from each crash state of a batch: most of them back to back (see `runChunk`), the others alone. */
  private async runMany(module: string, scenarios: Scenario[], shared: SharedRuns | null): Promise<ManyReply[]> {
    const replies: ManyReply[] = [];
    while (replies.length < scenarios.length) {
      const chunk = this.runChunk(module, scenarios, replies, shared);
      if (chunk === "limit") {
        // The chunk met its time limit: the scenario it was in runs again alone, with a limit on
        // each call (it has met one shared limit already; a second would cost its time again).
        await this.pending.settle();
        this.recorder?.closeLeftovers();
        this.close({ thorough: true });
        const reply = await this.run(module, scenarios[replies.length]!, { quick: false });
        replies.push({ results: reply.results, effects: reply.effects, git: reply.git });
        // A recovery that timed out ends the batch: the grader judges the cases up to it.
        if (reply.results.some((r) => r.status === "timed-out")) break;
      } else if (chunk.open) {
        // The scenario left work for the event loop: it has its turn now, as it would alone.
        try {
          await this.pending.settle();
          const reply = this.report(chunk.open.scenario, chunk.open.results, {});
          replies.push({ results: reply.results, effects: reply.effects, git: reply.git });
        } finally {
          this.close();
        }
      }
    }
    return replies;
  }

  /**
   * Runs scenarios back to back under one time limit (one watchdog thread for many of them),
   * adding a reply for each, until all are done, a quarter of the limit has passed, or one leaves
   * work for the event loop (it is returned open, its calls made). A chunk that meets the limit
   * ("limit") leaves the scenario it was in open, to be run again alone: the scenarios before it
   * ended well within the limit, so each of their calls did too.
   */
  private runChunk(module: string, scenarios: Scenario[], replies: ManyReply[], shared: SharedRuns | null): "limit" | { open: { scenario: Scenario; results: CallResult[] } | null } {
    const started = Date.now();
    const firstPids = new Map<number, number>();
    const stopWatching = watchMicrotasks();
    try {
      const chunk = sharedLimit(() => {
        while (replies.length < scenarios.length && Date.now() - started < this.config.callMs / 4) {
          const taken = shared?.replyFor(replies.length);
          if (taken) {
            replies.push({ ...taken, shared: true });
            continue;
          }
          const scenario = scenarios[replies.length]!;
          firstPids.set(replies.length, this.nextPid);
          const root = this.open(scenario, {});
          const results = this.runScenarioSteps(module, scenario, root, this.config.callMs, untimed);
          if (this.pending.count > 0 || microtasksQueued()) return { open: { scenario, results } };
          const reply = this.report(scenario, results, {});
          const many = { results: reply.results, effects: reply.effects, git: reply.git };
          shared?.remember(replies.length, this.recorder!.recoveryFootprint(), many);
          this.close();
          replies.push(many);
        }
        return { open: null };
      }, this.config.callMs);
      if (chunk) return chunk;
      // Cut short anywhere: the scenario in progress gets its process ids again when it runs again.
      this.nextPid = firstPids.get(replies.length) ?? this.nextPid;
      return "limit";
    } catch (error) {
      this.close({ thorough: true });
      throw error;
    } finally {
      stopWatching();
    }
  }

  /** Builds the scenario's folder, runs its steps, and reports the calls' outcomes; `quick` (the default) tries one limit for all its calls first. */
  async run(module: string, scenario: Scenario, opts: RunOptions & { quick?: boolean } = {}): Promise<RunReply> {
    const { quick = true, ...wanted } = opts;
    const firstPid = this.nextPid;
    // First all the calls under one limit (a time limit starts a watchdog thread, which costs more
    // than a small call): when they end within it, each call did too, and that is the outcome.
    // When not, the scenario runs again from the start with a limit on each call, as it always would.
    const reply = quick ? await this.runOnce(module, scenario, wanted, { ms: this.config.callMs, shared: true }) : null;
    if (reply) return reply;
    this.nextPid = firstPid;
    // A call that met its time limit while this process hardly ran (a busy machine, not a slow
    // call) is not the target's fault: the scenario runs again from the start, with more time.
    // One that has used half its limit of processor time has had its chance, however busy the machine.
    const nominal = this.config.callMs;
    for (let attempt = 0, ms = nominal; ; attempt++) {
      const reply = (await this.runOnce(module, scenario, wanted, { ms, shared: false }))!;
      const starved = reply.results.find((r) => r.status === "timed-out" && runsAgain(r, nominal));
      if (attempt === MAX_RETRIES || !starved || starved.status !== "timed-out") return reply;
      ms = nextLimit(ms, nominal, starved.share);
      this.nextPid = firstPid;
    }
  }

  /** One run of a scenario, each call limited to `limit.ms`; with `limit.shared`, all its calls under one limit, and null when they did not end within it. */
  private async runOnce(module: string, scenario: Scenario, wanted: RunOptions, limit: { ms: number; shared: boolean }): Promise<RunReply | null> {
    try {
      const root = this.open(scenario, wanted);
      const steps = () => this.runScenarioSteps(module, scenario, root, limit.ms, limit.shared ? untimed : undefined);
      const results = limit.shared ? sharedLimit(steps, limit.ms) : steps();
      await this.pending.settle();
      if (!results) {
        this.recorder!.closeLeftovers();
        return null;
      }
      return this.report(scenario, results, wanted);
    } finally {
      this.close();
    }
  }

  /** Makes the scenario's folder (the same one each time, emptied), rebuilds its disk, and points the process at it. */
  private open(scenario: Scenario, wanted: RunOptions): string {
    const root = this.folder.open();
    this.current = { root, savedCwd: process.cwd(), savedTmp: process.env.TMPDIR, savedHome: process.env.HOME };
    for (const point of scenario.from ?? []) replay(this.trace(point.traceId), point.cut, root);
    this.recorder = new Recorder(root, { keep: !!wanted.record });
    process.chdir(path.join(root, "cwd"));
    process.env.TMPDIR = path.join(root, "tmp");
    process.env.HOME = path.join(root, "cwd");
    return root;
  }

  /** What the open scenario did, from its calls' results and its recording (and its git history, when asked). */
  private report(scenario: Scenario, results: CallResult[], wanted: RunOptions): RunReply {
    const recorder = this.recorder!;
    // A run that timed out is judged on that alone: its trace is never crashed, so it stays here.
    const trace = wanted.record && !results.some((r) => r.status === "timed-out") ? recorder.trace() : undefined;
    recorder.closeLeftovers();
    const { root } = this.current!;
    const git = scenario.inspectGit === undefined ? undefined : readGitHistory(path.join(root, scenario.inspectGit), root);
    return { results, effects: recorder.effects, trace, disk: wanted.listDisk ? listDisk(root) : undefined, git, faults: recorder.faults?.report() };
  }

  /**
   * Puts the process back and empties the folder; `thorough` removes it instead (after a run cut
   * short anywhere). The scenario counts as open until the very end, so a cut here is finished later.
   */
  private close({ thorough = false }: { thorough?: boolean } = {}): void {
    const current = this.current;
    if (!current) return;
    this.recorder = null;
    process.chdir(current.savedCwd);
    if (current.savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = current.savedTmp;
    if (current.savedHome === undefined) delete process.env.HOME;
    else process.env.HOME = current.savedHome;
    // A program may have left a process behind (a daemon): it must not write into the next scenario.
    if (this.config.ownUser) killOthersOfMyUser();
    if (thorough) this.folder.discard();
    else this.folder.close();
    this.current = null;
  }

  /**
   * Runs the scenario's steps. The first instance gets the scenario's `pid` when it has one (a
   * restart with the crashed process's id), later ones new ids; each gets a random stream of its own.
   */
  private runScenarioSteps(module: string, scenario: Scenario, root: string, limitMs: number, within?: <T>(fn: () => T, ms: number) => T) {
    let pid = scenario.pid;
    let started = 0;
    const instantiate = () => {
      this.currentPid = pid ?? this.nextPid++;
      pid = undefined;
      this.recorder!.mark(`pid:${this.currentPid}`);
      const random = processSeed(this.config.seed, scenario, started++);
      // Each crash state's processes draw their own numbers: a recovery that drew some is its own.
      const drew = () => this.recorder?.lookedBeyond("it drew random numbers");
      return this.compiledModule(module).instantiate({ fs: this.fs, childProcess: this.childProcess, provided: { [LAB_SPECIFIER]: this.lab, [STAND_IN_SPECIFIER]: this.standIn }, pid: this.currentPid, random, drew });
    };
    const compiled = this.compiledModule(module);
    this.recorder!.callerOf = compiled.frames.callerHook();
    const frames = (error: unknown) => compiled.frames.of(error);
    const progress = (call: string, limitMs: number) => this.progress((this.currentCall = call), (this.currentLimitMs = limitMs));
    return runScenarioSteps(scenario.steps, root, { instantiate, fs: this.fs, recorder: this.recorder!, limitMs, nominalMs: this.config.callMs, progress, frames, within, pending: () => this.pending.count });
  }

  private compiledModule(module: string): CompiledTarget {
    let compiled = this.compiled.get(module);
    if (!compiled) {
      const file = this.config.modules[module];
      if (!file) throw new Error(`no bundle for module ${module}`);
      compiled = new CompiledTarget(file, this.config.targetDir, path.join(this.config.targetDir, `${module}.ts`));
      this.compiled.set(module, compiled);
    }
    return compiled;
  }

  private trace(id: string): Trace {
    const trace = this.traces.get(id);
    if (!trace) throw new NeedTrace(id);
    return trace;
  }
}

/** Runs `fn` under one time limit; null when it did not end within it. */
function sharedLimit<T>(fn: () => T, ms: number): T | null {
  try {
    return withTimeLimit(fn, ms);
  } catch (error) {
    if (error instanceof CallTimedOut) return null;
    throw error;
  }
}

/** A call made as it is, under a limit held around it. */
function untimed<T>(fn: () => T): T {
  return fn();
}

/**
 * How many times a scenario runs again, with more time each time, after a call timed out on a
 * starved process: one that hardly ran on a CPU because the machine was busy, or because it
 * waited for programs it runs (git), which a busy machine slows most. A call that spins ends at once.
 */
const MAX_RETRIES = 3;
/** Raised when the grader refers to a trace this host has not been given (after a restart). */
export class NeedTrace extends Error {
  constructor(readonly traceId: string) {
    super(`trace ${traceId} is not loaded`);
  }
}
