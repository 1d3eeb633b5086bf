// Who submitted code runs as. When the grader is root (Gradescope, a container, a course server),
// every process that runs target code runs as a user id of its own, lent for the grade, with a
// group shared by the grade's processes: it can enter the grade's scratch folder and nothing of
// the grader's, and it has no network (./network.ts). Elsewhere (a student's laptop) it runs as
// the grader's own user, and the report says so. This file runs in the grader's processes, never in a target's.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { idRange, lockFolderProblem, releaseIdsOf, returnId, takeId, type IdRange } from "./ids.js";
import { probeNetworkCut, withoutNetwork, type NetworkAccess } from "./network.js";
import { killEveryProcessOf } from "./processes.js";
import type { TargetUserReport } from "../../report/report.js";

/** How a grade runs submitted code; decided once, in the grade's main process, and handed to every check. */
export type TargetIdentity =
  | { separate: true; gid: number; gradePid: number; range: IdRange; network: NetworkAccess }
  | { separate: false; why: string };

/** A user id and group id a target's processes run as. */
export interface TargetUser {
  uid: number;
  gid: number;
}

/** Whether grades here run submitted code as users of their own (root on Linux, not turned off): the folders to keep from them are then closed. */
export function gradesAsRoot(env: NodeJS.ProcessEnv = process.env): boolean {
  return process.platform === "linux" && process.getuid?.() === 0 && !turnedOff(env);
}

/** `GRADE_SANDBOX_USER=off` (or 0, false, no): the instructor asked for the grader's own user. */
function turnedOff(env: NodeJS.ProcessEnv): boolean {
  return /^(off|0|false|no)$/i.test(env.GRADE_SANDBOX_USER ?? "");
}

/** Decides how the grade runs submitted code; `shared` are the scratch folders its processes must enter. */
export function chooseIdentity(shared: string[], env: NodeJS.ProcessEnv = process.env): TargetIdentity {
  if (process.platform !== "linux") return { separate: false, why: "a separate user for submitted code is made on Linux only" };
  if (process.getuid?.() !== 0) return { separate: false, why: "the grader does not run as root" };
  if (turnedOff(env)) return { separate: false, why: "GRADE_SANDBOX_USER=off" };
  let range: IdRange;
  try {
    range = idRange(env.GRADE_SANDBOX_IDS);
  } catch (error) {
    return { separate: false, why: (error as Error).message };
  }
  const lockProblem = lockFolderProblem();
  if (lockProblem) return { separate: false, why: lockProblem };
  const gid = takeId(range, process.pid, "group", 0);
  if (gid === null) return { separate: false, why: `no id in ${range.first}-${range.last} (GRADE_SANDBOX_IDS) is free` };
  // The runtime must be one any user may run (not one installed in root's home folder), and is
  // run without the network when a namespace can be made here.
  const probe = UserLease.of({ separate: true, gid, gradePid: process.pid, range, network: { cut: false, why: "not probed yet" } });
  let network: NetworkAccess;
  try {
    network = probeNetworkCut(probe.user!);
    if (!network.cut && !runsNode(probe)) {
      returnId(gid);
      return { separate: false, why: `another user cannot run Node at ${process.execPath}: install it where every user may run it` };
    }
  } finally {
    probe.release();
  }
  const identity: TargetIdentity = { separate: true, gid, gradePid: process.pid, range, network };
  for (const dir of shared) shareWithTargets(dir, identity);
  return identity;
}

/** Whether the lease's user can run this Node (with the network: the probe without it failed). */
function runsNode(lease: UserLease): boolean {
  const ran = spawnSync(process.execPath, ["-e", "0"], { ...lease.spawnOptions, cwd: "/", env: {}, stdio: "ignore", timeout: 30_000 });
  return ran.status === 0;
}

/** What the report says of who the submitted code ran as, and whether it could use the network. */
export function targetUserReport(identity: TargetIdentity): TargetUserReport {
  const root = process.getuid?.() === 0;
  if (!identity.separate) return { separate: false, root, network: true, why: identity.why };
  return identity.network.cut ? { separate: true, root, network: false } : { separate: true, root, network: true, networkWhy: identity.network.why };
}

/** Lets the grade's target processes enter `dir` (not list it), and nobody else's. */
export function shareWithTargets(dir: string, identity: TargetIdentity): void {
  if (!identity.separate) return;
  fs.chownSync(dir, 0, identity.gid);
  // Enter, not list: each user finds its own folders by the names it is given.
  fs.chmodSync(dir, 0o710);
}

/** Takes away other users' access to `dir` (the grader's tree, a target folder, reports): nothing below it can be reached. */
export function keepFromTargets(dir: string, identity: Pick<TargetIdentity, "separate">): void {
  if (!identity.separate || !fs.existsSync(dir)) return;
  fs.chmodSync(dir, fs.statSync(dir).mode & 0o7770);
}

/** Ends every process the grade's targets left and gives back every id the grade holds (the grade's last step). */
export function endTargets(identity: TargetIdentity): void {
  if (identity.separate) releaseIdsOf(identity.gradePid);
}

/**
 * One user for the processes over one set of folders (a sandbox's, a session folder's, the
 * concurrency checks' writers): its own uid when the grade has separate users, else nobody's.
 */
export class UserLease {
  private released = false;

  /** `unshare`: the program that starts this user's processes without the network, when the grade cuts it. */
  private constructor(readonly user: TargetUser | null, private readonly unshare: string | null) {}

  /** A user of its own for one set of target processes, when the identity has them. */
  static of(identity: TargetIdentity | undefined): UserLease {
    if (!identity?.separate) return new UserLease(null, null);
    const uid = takeId(identity.range, identity.gradePid, "user", identity.gid);
    if (uid === null) throw new Error(`no id in ${identity.range.first}-${identity.range.last} is free for a target's processes`);
    return new UserLease({ uid, gid: identity.gid }, identity.network.cut ? identity.network.unshare : null);
  }

  /** What `spawn` needs to start a process as this user, with the network: for the grader's own uses, not the target's code (see `spawn`). */
  get spawnOptions(): { uid?: number; gid?: number } {
    return this.user ? { uid: this.user.uid, gid: this.user.gid } : {};
  }

  /**
   * How to start `command` that runs target code as this user: as it is, with `spawn`'s uid and gid, or through unshare
   * (spawned as root, it takes the user's ids itself) when the grade keeps its code off the network.
   */
  spawn(command: { file: string; args: string[] }): { file: string; args: string[]; options: { uid?: number; gid?: number } } {
    if (!this.user) return { ...command, options: {} };
    if (this.unshare) return { ...withoutNetwork(command, this.user, this.unshare), options: {} };
    return { ...command, options: this.spawnOptions };
  }

  /** Makes `dir` (and its parents) and gives it, with whatever it holds, to this user; returns it. */
  folder(dir: string): string {
    fs.mkdirSync(dir, { recursive: true });
    this.handOver(dir);
    return dir;
  }

  private readonly copies = new Map<string, string>();

  /**
   * A copy of the bundle `file` in `dir` that only this user may read (the grade's own bundles are
   * root's alone: one holding the reference's earlier file must not be read by another check's
   * code); the file itself for the grader's own user. Copied once per lease.
   */
  bundle(file: string, dir: string): string {
    if (!this.user) return file;
    this.mustBeHeld();
    let copy = this.copies.get(file);
    if (!copy) {
      this.folder(dir);
      fs.chmodSync(dir, 0o700);
      copy = path.join(dir, path.basename(file));
      fs.copyFileSync(file, copy);
      fs.chownSync(copy, this.user.uid, this.user.gid);
      fs.chmodSync(copy, 0o400);
      this.copies.set(file, copy);
    }
    return copy;
  }

  /** Gives `target` and everything below it to this user (the grader made them; the target writes there). */
  handOver(target: string): void {
    if (!this.user) return;
    this.mustBeHeld();
    const { uid, gid } = this.user;
    const walk = (p: string) => {
      const stat = fs.lstatSync(p);
      fs.lchownSync(p, uid, gid);
      if (stat.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
    };
    walk(target);
  }

  /**
   * Ends every process of this user but `except` (processes the grader still uses). Nothing once
   * the id was given back: it may be another lease's by then.
   */
  sweep(except: number[] = []): void {
    if (!this.user || this.released) return;
    killEveryProcessOf(this.user, except);
  }

  /** Refuses to give anything to an id given back (a check abandoned at its deadline may still run). */
  private mustBeHeld(): void {
    if (this.released) throw new Error(`the user ${this.user!.uid} of this lease was given back: its check has ended`);
  }

  /** Ends every process of this user and gives its id back; later calls do nothing. */
  release(): void {
    if (!this.user || this.released) return;
    this.released = true;
    killEveryProcessOf(this.user);
    returnId(this.user.uid);
  }
}
