// Which entries of a trace a crash state can do without: those on a file that is gone by the cut
// (removed, or replaced by a rename over its name). A long run writes its checkpoint again at
// every step, and each write replaces the last: rebuilding the disk of a crash late in the run
// by redoing every write before it would cost as many system calls as the run had steps, for
// every crash state. Leaving out the files that are gone by then gives the same disk from the
// writes of the files still there.
//
// The same disk, because each file is followed through the trace as one file (an inode), not as
// a name: its entries are its opens, writes, truncations, fsyncs and closes, the rename that moves
// it and the unlink that removes it. A file that is gone by the cut left nothing on disk, so none
// of its entries changes what the others leave, with two exceptions, both kept:
// - a file that was on disk before the trace began (its content is not in the trace), and any
//   file whose rename replaced one of those, or replaced a file kept for that reason: leaving the
//   rename out would leave the older file in place;
// - folders: every mkdir and rmdir is redone.
// A read-only open, and the fsync and close of its descriptor, change nothing on disk and are
// always left out.
// A trace this model does not follow exactly is replayed whole: one with links or symbolic links
// (two names for one file, or a name through another), attribute changes, renames of a folder or
// of a name the trace did not make, or paths outside the scenario folder.
import fs from "node:fs";
import path from "node:path";
import type { Trace } from "./model.js";
import { inScenario, opensForChange, opensToCreate } from "./trace.js";

/** What `deadFilePlan` learns from a trace once: the file each entry is on, and when each file is gone. */
export interface DeadFilePlan {
  /** For each entry, the file it is on; -1 for entries that are always redone (folders, marks, effects), -3 for those always left out (read-only opens and their descriptors). */
  fileOf: Int32Array;
  /** For each file, the index of the entry that removed or replaced it (Infinity when it stays). */
  goneAt: number[];
  /** Files that are always redone: those that were on disk before the trace. */
  before: boolean[];
  /** Files that may have been on disk before the trace (a first "w" open, or a rename onto a new name): the name to look for. */
  maybeBefore: { file: number; path: string }[];
  /** [replacer, replaced]: `replacer`'s rename replaced `replaced`, in trace order. */
  replaced: [number, number][];
}

const FOLDER = -2;
const READ_ONLY = -3;
const plans = new WeakMap<Trace, DeadFilePlan | null>();

/** The plan for `trace`, or null when it must be replayed whole (see the top of this file). Computed once per trace. */
export function deadFilePlan(trace: Trace): DeadFilePlan | null {
  let plan = plans.get(trace);
  if (plan === undefined) {
    plan = makePlan(trace);
    plans.set(trace, plan);
  }
  return plan;
}

function makePlan(trace: Trace): DeadFilePlan | null {
  const fileOf = new Int32Array(trace.entries.length).fill(-1);
  const goneAt: number[] = [];
  const before: boolean[] = [];
  const maybeBefore: DeadFilePlan["maybeBefore"] = [];
  const replaced: [number, number][] = [];
  const named = new Map<string, number>(); // a name in the scenario -> the file there (or FOLDER)
  const seen = new Set<string>(); // names the trace has used
  const byFd = new Map<number, number>();
  const newFile = (wasBefore: boolean) => {
    goneAt.push(Infinity);
    before.push(wasBefore);
    return goneAt.length - 1;
  };
  // The file at `name` as the trace first meets it: one from before the trace, or (`mayBeNew`) one it may be making.
  const firstMeeting = (name: string, mayBeNew: boolean): number => {
    const file = newFile(!mayBeNew);
    if (mayBeNew) maybeBefore.push({ file, path: name });
    return file;
  };
  const inside = (p: string) => p.startsWith("@/");
  for (let i = 0; i < trace.entries.length; i++) {
    const e = trace.entries[i]!;
    switch (e.kind) {
      case "mark":
      case "effect":
        break;
      case "open": {
        if (!inside(e.path)) return null;
        let file = named.get(e.path);
        // A read-only open (a folder's, to fsync it, or a file's, to read it) and what is done
        // with its descriptor change nothing on disk: always left out.
        if (!opensForChange(e.flags)) {
          if (file === undefined && !seen.has(e.path)) named.set(e.path, firstMeeting(e.path, false));
          seen.add(e.path);
          byFd.set(e.fd, READ_ONLY);
          fileOf[i] = READ_ONLY;
          break;
        }
        if (file === FOLDER) return null;
        if (file === undefined) {
          // A name the trace used before and no longer holds is not on disk: only a creating open could have opened it.
          if (seen.has(e.path) && !opensToCreate(e.flags)) return null;
          file = seen.has(e.path) ? newFile(false) : firstMeeting(e.path, opensToCreate(e.flags));
          named.set(e.path, file);
        }
        seen.add(e.path);
        byFd.set(e.fd, file);
        fileOf[i] = file;
        break;
      }
      case "write":
      case "ftruncate":
      case "fsync":
      case "close": {
        const file = byFd.get(e.fd);
        if (file === undefined || (file === READ_ONLY && e.kind !== "fsync" && e.kind !== "close")) return null;
        fileOf[i] = file;
        if (e.kind === "close") byFd.delete(e.fd);
        break;
      }
      case "truncate":
      case "unlink": {
        if (!inside(e.path)) return null;
        let file = named.get(e.path);
        if (file === FOLDER) return null;
        if (file === undefined) {
          if (seen.has(e.path)) return null;
          file = firstMeeting(e.path, false);
        }
        seen.add(e.path);
        fileOf[i] = file;
        if (e.kind === "unlink") {
          goneAt[file] = i;
          named.delete(e.path);
        } else named.set(e.path, file);
        break;
      }
      case "rename": {
        if (!inside(e.from) || !inside(e.to)) return null;
        const file = named.get(e.from);
        // Only files the trace made or met by name move: a folder's rename moves names this model does not follow.
        if (file === undefined || file === FOLDER) return null;
        fileOf[i] = file;
        if (e.from === e.to) break;
        let old = named.get(e.to);
        if (old === FOLDER) return null;
        if (old === undefined && !seen.has(e.to)) old = firstMeeting(e.to, true);
        seen.add(e.to);
        if (old !== undefined) {
          goneAt[old] = i;
          replaced.push([file, old]);
        }
        named.delete(e.from);
        named.set(e.to, file);
        break;
      }
      case "mkdir":
        if (!inside(e.path)) return null;
        named.set(e.path, FOLDER);
        seen.add(e.path);
        break;
      case "rmdir":
        if (!inside(e.path) || (named.has(e.path) && named.get(e.path) !== FOLDER)) return null;
        named.delete(e.path);
        seen.add(e.path);
        break;
      default:
        // symlink, link, attr: two names for one file, a name through another, or metadata this model does not follow.
        return null;
    }
  }
  return { fileOf, goneAt, before, maybeBefore, replaced };
}

/**
 * Which entries before `at` a replay into `root` (holding the disk the trace started from) may
 * leave out: a predicate over entry indexes. Looks in `root` for the names the trace may have
 * found there.
 */
export function leftOutAt(plan: DeadFilePlan, at: number, root: string): (index: number) => boolean {
  const kept = plan.before.slice();
  const listings = new Map<string, Set<string> | null>();
  const exists = (stored: string) => {
    const real = inScenario(root, stored);
    const dir = path.dirname(real);
    let names = listings.get(dir);
    if (names === undefined) {
      try {
        names = new Set(fs.readdirSync(dir));
      } catch {
        names = null;
      }
      listings.set(dir, names);
    }
    return names?.has(path.basename(real)) ?? false;
  };
  for (const { file, path: name } of plan.maybeBefore) if (plan.goneAt[file]! < at && exists(name)) kept[file] = true;
  // A file whose rename replaced a kept file is kept, or the kept file would stay; in trace order, so chains hold.
  for (const [replacer, old] of plan.replaced) if (kept[old]) kept[replacer] = true;
  return (index) => {
    const file = plan.fileOf[index]!;
    return file === READ_ONLY || (file >= 0 && !kept[file] && plan.goneAt[file]! < at);
  };
}
