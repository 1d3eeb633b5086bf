// Serve mode's host: the child that runs the target's code for the grader's requests (see
// serve.ts). The grader sends it scenarios (calls into fresh module instances, with the
// file-system calls recorded) and crash states to rebuild and recover from. It judges nothing:
// it reports what happened.
import path from "node:path";
import { replay } from "../../crash/replay.js";
import { charged } from "../messages/cpu-causes.js";
import type { Cut, Trace } from "../../crash/model.js";
import { diskKeys } from "../../crash/same-disk.js";
import { SharedRuns } from "./shared-runs.js";
import { CompiledTarget } from "./target/instance.js";
import { withCallLimits } from "./target/time-limit.js";
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
  /** The call the target is in, for `progress` while it waits for a program it runs. */
  private currentCall = "";
  // Every program the target runs is progress: a call that waits for many of them (a git-backed
  // runner's ten commits) is not a call stuck in a system call.
  private readonly childProcess = createRecordingChildProcess(() => this.recorder, { ended: () => this.progress(this.currentCall) });
  private nextPid = 4001;
  /** The next process id when the first case of a property began: every case starts from it again. */
  private casePid: number | null = null;
  private currentPid = 0;
  private readonly lab = labModule((effect) => this.recorder?.push({ kind: "effect", ...effect }), () => this.currentPid);
  private readonly standIn = standInModule(this.fs, () => this.recorder);
  private readonly folder: ScenarioFolder;
  /** The scenario whose folder is open, and what to put back when it closes. */
  private current: { root: string; savedCwd: string; savedTmp: string | undefined; savedHome: string | undefined } | null = null;
  /** Tells the grader that the host is still making progress, and the call it is in. Set per request by the serving loop. */
  progress: (call: string) => void = () => {};

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
    while (replies.length < scenarios.length && !timedOut(replies.at(-1))) {
      const open = this.runChunk(module, scenarios, replies, shared);
      if (!open) continue;
      // The scenario left work for the event loop: it has its turn now, as it would alone.
      try {
        await this.pending.settle();
        const reply = this.report(open.scenario, open.results, {});
        replies.push({ results: reply.results, effects: reply.effects, git: reply.git });
      } finally {
        this.close();
      }
    }
    return replies;
  }

  /**
   * Runs scenarios back to back, each call under its own limit, adding a reply for each, until
   * all are done, a second has passed (the event loop has its turn), one timed out (a recovery that
   * timed out ends the batch: the grader judges the cases up to it), or one leaves work for the
   * event loop (it is returned open, its calls made).
   */
  private runChunk(module: string, scenarios: Scenario[], replies: ManyReply[], shared: SharedRuns | null): { scenario: Scenario; results: CallResult[] } | null {
    const started = performance.now();
    const stopWatching = watchMicrotasks();
    try {
      return withCallLimits(() => {
        while (replies.length < scenarios.length && !timedOut(replies.at(-1)) && performance.now() - started < CHUNK_MS) {
          const taken = shared?.replyFor(replies.length);
          if (taken) {
            replies.push({ ...taken, shared: true });
            continue;
          }
          const scenario = scenarios[replies.length]!;
          const root = this.open(scenario, {});
          const results = this.runScenarioSteps(module, scenario, root);
          if (this.pending.count > 0 || microtasksQueued()) return { scenario, results };
          const reply = this.report(scenario, results, {});
          const many = { results: reply.results, effects: reply.effects, git: reply.git };
          shared?.remember(replies.length, this.recorder!.recoveryFootprint(), many);
          this.close();
          replies.push(many);
        }
        return null;
      });
    } catch (error) {
      this.close({ thorough: true });
      throw error;
    } finally {
      stopWatching();
    }
  }

  /** Builds the scenario's folder, runs its steps, and reports the calls' outcomes. */
  async run(module: string, scenario: Scenario, wanted: RunOptions = {}): Promise<RunReply> {
    try {
      const root = this.open(scenario, wanted);
      const results = withCallLimits(() => this.runScenarioSteps(module, scenario, root));
      await this.pending.settle();
      return this.report(scenario, results, wanted);
    } finally {
      this.close();
    }
  }

  /** Makes the scenario's folder (the same one each time, emptied), rebuilds its disk, and points the process at it. */
  private open(scenario: Scenario, wanted: RunOptions): string {
    return charged("rebuild", () => {
      const root = this.folder.open();
      this.current = { root, savedCwd: process.cwd(), savedTmp: process.env.TMPDIR, savedHome: process.env.HOME };
      for (const point of scenario.from ?? []) replay(this.trace(point.traceId), point.cut, root);
      this.recorder = new Recorder(root, { keep: !!wanted.record });
      process.chdir(path.join(root, "cwd"));
      process.env.TMPDIR = path.join(root, "tmp");
      process.env.HOME = path.join(root, "cwd");
      return root;
    });
  }

  /** What the open scenario did, from its calls' results and its recording (and its git history, when asked). */
  private report(scenario: Scenario, results: CallResult[], wanted: RunOptions): RunReply {
    return charged("report", () => {
      const recorder = this.recorder!;
      // A run that timed out is judged on that alone: its trace is never crashed, so it stays here.
      const trace = wanted.record && !results.some((r) => r.status === "timed-out") ? recorder.trace() : undefined;
      recorder.closeLeftovers();
      const { root } = this.current!;
      const git = scenario.inspectGit === undefined ? undefined : readGitHistory(path.join(root, scenario.inspectGit), root);
      return { results, effects: recorder.effects, trace, disk: wanted.listDisk ? listDisk(root) : undefined, git, faults: recorder.faults?.report() };
    });
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
    charged("close", () => {
      // A program may have left a process behind (a daemon): it must not write into the next scenario.
      if (this.config.ownUser) killOthersOfMyUser();
      if (thorough) this.folder.discard();
      else this.folder.close();
    });
    this.current = null;
  }

  /**
   * Runs the scenario's steps. The first instance gets the scenario's `pid` when it has one (a
   * restart with the crashed process's id), later ones new ids; each gets a random stream of its own.
   */
  private runScenarioSteps(module: string, scenario: Scenario, root: string) {
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
    const progress = (call: string) => this.progress((this.currentCall = call));
    return charged("target", () => runScenarioSteps(scenario.steps, root, { instantiate, fs: this.fs, recorder: this.recorder!, limitMs: this.config.callMs, progress, frames, pending: () => this.pending.count }));
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

/** How long a chunk of crash states runs before the event loop has its turn. */
const CHUNK_MS = 1_000;

/** Whether a reply holds a call that met its time limit. */
function timedOut(reply: ManyReply | undefined): boolean {
  return !!reply?.results.some((r) => r.status === "timed-out");
}

/** Raised when the grader refers to a trace this host has not been given (after a restart). */
export class NeedTrace extends Error {
  constructor(readonly traceId: string) {
    super(`trace ${traceId} is not loaded`);
  }
}
