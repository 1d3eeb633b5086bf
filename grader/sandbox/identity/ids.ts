// Numeric user and group ids lent to one grade at a time. An id is free when no account or group
// has it, no process runs under it, and no live grade holds it; a grade holds it through a lock
// file (linked into place whole) that names the grade's process, so the ids of a grade that was
// killed are found, cleared and lent again.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { killEveryProcessOf, processesByUser, processesOf } from "./processes.js";

/** Where the locks live: a folder only root may enter (checked before any lock is trusted). */
export const LOCK_DIR = "/tmp/checkpoint-grade-ids";

/** The ids lent by default: below systemd's dynamic users (61184-65519) and above the ids of people (1000-59999). */
export const DEFAULT_IDS = { first: 60200, last: 60999 };

export interface IdRange {
  first: number;
  last: number;
}

/** The range in `GRADE_SANDBOX_IDS` ("60200-60999"), or the default; throws for a malformed one. */
export function idRange(text: string | undefined): IdRange {
  if (!text) return DEFAULT_IDS;
  const m = /^(\d+)-(\d+)$/.exec(text.trim());
  const range = m && { first: Number(m[1]), last: Number(m[2]) };
  if (!range || range.first < 1000 || range.last < range.first || range.last > 65533) {
    throw new Error(`GRADE_SANDBOX_IDS: expected a range of ids such as 60200-60999 (from 1000 to 65533), got ${JSON.stringify(text)}`);
  }
  return range;
}

/** Makes the lock folder, or says why it cannot be trusted (another user made it first). */
export function lockFolderProblem(): string | null {
  try {
    fs.mkdirSync(LOCK_DIR, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") return `${LOCK_DIR} could not be made (${(error as Error).message})`;
  }
  const stat = fs.lstatSync(LOCK_DIR);
  if (!stat.isDirectory() || stat.uid !== 0 || (stat.mode & 0o077) !== 0) return `${LOCK_DIR} is not a folder that only root may enter`;
  return null;
}

interface Lock {
  /** The grade (its main process) that holds the id. */
  gradePid: number;
  kind: "user" | "group";
}

function lockFile(id: number): string {
  return path.join(LOCK_DIR, String(id));
}

function readLock(id: number): Lock | null {
  let text: string;
  try {
    text = fs.readFileSync(lockFile(id), "utf8");
  } catch {
    return null;
  }
  const [pid, kind] = text.trim().split(" ");
  // A lock that does not read as one (written by hand, say) is held: never cleared, never lent.
  return { gradePid: /^\d+$/.test(pid ?? "") ? Number(pid) : UNKNOWN_HOLDER, kind: kind === "group" ? "group" : "user" };
}

/** The holder of a lock that names none: counted as alive. */
const UNKNOWN_HOLDER = -1;

function alive(pid: number): boolean {
  if (pid === UNKNOWN_HOLDER) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Ids the system's databases already give to an account or a group (asked once per id and process). */
const known = new Map<number, boolean>();

function namedBySystem(id: number): boolean {
  let named = known.get(id);
  if (named === undefined) {
    if (filesSuffice()) named = inFiles(id);
    else {
      const ask = (db: string) => spawnSync("getent", [db, String(id)], { stdio: "ignore" }).status;
      const passwd = ask("passwd");
      // Without getent, the files themselves are read.
      named = passwd === null ? inFiles(id) : passwd === 0 || ask("group") === 0;
    }
    known.set(id, named);
  }
  return named;
}

let onlyFiles: boolean | undefined;

/**
 * Whether the account and group databases are the files alone (and systemd's, whose dynamic ids
 * lie above the range lent here), as in containers and most machines: then no program is asked.
 * With a directory service (LDAP, SSSD, NIS), each id is asked of getent.
 */
function filesSuffice(): boolean {
  if (onlyFiles === undefined) {
    const conf = fs.existsSync("/etc/nsswitch.conf") ? fs.readFileSync("/etc/nsswitch.conf", "utf8") : "passwd: files\ngroup: files";
    const sources = (db: string) => (new RegExp(`^${db}:(.*)$`, "m").exec(conf)?.[1] ?? "files").replace(/\[[^\]]*\]/g, "").trim().split(/\s+/);
    onlyFiles = [...sources("passwd"), ...sources("group")].every((s) => ["files", "systemd", "compat"].includes(s));
  }
  return onlyFiles;
}

/** The files' own lines, read once per process. */
let fileIds: Set<string> | undefined;

function inFiles(id: number): boolean {
  if (!fileIds) {
    fileIds = new Set();
    for (const file of ["/etc/passwd", "/etc/group"]) {
      const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
      for (const line of text.split("\n")) if (line.split(":")[2]) fileIds.add(line.split(":")[2]!);
    }
  }
  return fileIds.has(String(id));
}

/**
 * Takes the lowest free id of `range` for the grade `gradePid`, or null when none is free. A lock
 * left by a grade that is gone is cleared first: its processes are ended, then the id is lent again.
 */
export function takeId(range: IdRange, gradePid: number, kind: Lock["kind"], gid: number): number | null {
  for (let id = range.first; id <= range.last; id++) {
    const lock = readLock(id);
    if (lock && alive(lock.gradePid)) continue;
    if (namedBySystem(id)) continue;
    if (lock) {
      if (takeOverStale(id, lock, `${gradePid} ${kind}\n`, gid)) return id;
      continue;
    }
    if (processesOf(id).length > 0) continue; // somebody else's, whatever the databases say
    if (lockWith(id, `${gradePid} ${kind}\n`)) return id;
  }
  return null;
}

/**
 * Clears the lock `stale` of a grade that is gone and takes its id with `text`, or says false.
 * Several grades may find the same stale lock at once (after a batch was killed, say): only the
 * one that makes the id's clearing mark clears it, and only when the lock is still the one it
 * read. Otherwise a grade that read it a moment earlier would end the processes the new holder
 * had just started under the id, and lend the id a second time. A mark left by a grade killed
 * while clearing keeps its id from being lent (there are hundreds).
 */
function takeOverStale(id: number, stale: Lock, text: string, gid: number): boolean {
  const mark = `${lockFile(id)}.clearing`;
  if (!linkWith(id, mark, `${process.pid}\n`)) return false;
  try {
    const now = readLock(id);
    if (!now || now.gradePid !== stale.gradePid || now.kind !== stale.kind || alive(now.gradePid)) return false;
    if (now.kind === "user") killEveryProcessOf({ uid: id, gid });
    // The new lock replaces the stale one whole: nobody ever finds the id without a lock meanwhile.
    const own = ownFile(id);
    fs.writeFileSync(own, text, { mode: 0o600 });
    fs.renameSync(own, lockFile(id));
    return true;
  } finally {
    fs.rmSync(mark, { force: true });
  }
}

/**
 * Makes the lock of `id` holding `text`, whole or not at all: written to a file of its own, then
 * linked to the lock's name (a link fails when the name exists), so nobody ever reads a lock half made.
 */
function lockWith(id: number, text: string): boolean {
  return linkWith(id, lockFile(id), text);
}

/** Makes the file `name` (the lock or mark of `id`) holding `text`, whole, unless it exists: false when another grade made it first. */
function linkWith(id: number, name: string, text: string): boolean {
  const own = ownFile(id);
  fs.writeFileSync(own, text, { mode: 0o600 });
  try {
    fs.linkSync(own, name);
    return true;
  } catch {
    return false; // another grade made it first
  } finally {
    fs.rmSync(own, { force: true });
  }
}

/** A file name of this process's own in the lock folder, for a lock or mark being made. */
function ownFile(id: number): string {
  return path.join(LOCK_DIR, `.${id}.${process.pid}.${Math.random().toString(36).slice(2)}`);
}

/** Gives an id back. */
export function returnId(id: number): void {
  fs.rmSync(lockFile(id), { force: true });
}

/** The ids held now, users and groups, with the grade that holds each. */
export function heldIds(): { id: number; kind: Lock["kind"]; gradePid: number }[] {
  if (!fs.existsSync(LOCK_DIR)) return [];
  return fs.readdirSync(LOCK_DIR).filter((n) => /^\d+$/.test(n)).flatMap((n) => {
    const lock = readLock(Number(n));
    return lock ? [{ id: Number(n), ...lock }] : [];
  });
}

/** Ends every process of the users the grade `gradePid` holds and gives all its ids back: its end, or after it was killed. */
export function releaseIdsOf(gradePid: number): void {
  const held = heldIds().filter((h) => h.gradePid === gradePid);
  const gid = held.find((h) => h.kind === "group")?.id ?? 65534;
  for (const { id, kind } of held) if (kind === "user") killEveryProcessOf({ uid: id, gid });
  for (const { id } of held) returnId(id);
}

/**
 * Processes of lent-out ids that no live grade holds (Linux, as root): what a grade left running.
 * Empty when nothing is left.
 */
export function strayProcesses(range: IdRange = DEFAULT_IDS): { uid: number; pid: number }[] {
  const held = new Map(heldIds().map((h) => [h.id, h.gradePid]));
  const out: { uid: number; pid: number }[] = [];
  for (const [uid, pids] of processesByUser()) {
    if (uid < range.first || uid > range.last) continue;
    const holder = held.get(uid);
    if (holder !== undefined && alive(holder)) continue;
    for (const pid of pids) out.push({ uid, pid });
  }
  return out;
}
