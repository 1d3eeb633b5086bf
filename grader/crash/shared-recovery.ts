// Which crash states of one trace can share one recovery run. A recovery sees the disk only
// through the paths it names (what it opens, reads, lists, stats, renames or removes): two crash
// states that hold the same thing at each of those paths give the same run, call by call, so the
// run made for one is the run the other would make. Most crash states of a write differ only in
// a file the recovery never looks at (the temp file, while it is being written): a checkpoint
// written in 1 KiB chunks has a crash state per chunk, and a recovery that loads the checkpoint
// gives each of them the same answer.
//
// What a recovery looked at is its footprint, at three depths:
// - paths whose whole state it may depend on (what it read: the file or folder there and all
//   below it, and the folders above it, which decide whether the path can be reached at all);
// - paths of which only whether they are there, and as what, matters (a file it removed, created
//   exclusively, or checked the existence of): what a file there holds is not looked at;
// - folders whose names it listed (what the names hold is not looked at).
// The disk at a cut is the disk the trace started from with the trace's entries before the cut
// redone, so two cuts hold the same thing at a path when no entry between them changed the path,
// anything below it or any folder above it; the same kind of thing at a path when no entry
// between them made, removed or renamed it, changed its mode or owner, or changed a folder above
// it; and the same names in a folder when no entry between them made, removed or renamed a name
// in it, or changed the folder itself or a folder above it. A cut's key for a footprint is, for
// each of its paths, the last entry before the cut that changed what is looked at there; two
// cuts with the same key hold the same thing wherever the recovery looked.
//
// A write through a descriptor changes the file the descriptor was opened on, under every name a
// rename gave that file since. A trace with links or symbolic links (two names for one file, or a
// name through another) is never shared, nor is a power cut (its disk also depends on what was
// made durable): those keys are null.
import type { Cut, Trace, TraceEntry } from "./model.js";
import { changesDisk, opensToCreate } from "./trace.js";

/** What a recovery looked at, as stored paths ("@/cwd/work/checkpoint.json"). */
export interface Footprint {
  /** Paths whose whole state the run may depend on. */
  paths: readonly string[];
  /** Paths where only whether something is there, and what kind of thing with what mode, matters. */
  entries: readonly string[];
  /** Folders whose names the run listed (what they hold, beyond the names, is not looked at). */
  listings: readonly string[];
}

/** For each entry that changes the disk: the stored paths it changes, and whether it makes, removes or renames a name, or changes a mode, owner or times. */
export interface Changes {
  index: number;
  paths: string[];
  names: boolean;
  attr?: boolean;
}

/** The trace's changes by path, each list in trace order: what a footprint path's changes are found in without a scan of every change. */
interface ChangeIndex {
  /** Changes of the path itself. */
  at: Map<string, number[]>;
  /** Changes of the path itself that make, remove or rename it, or change its mode, owner or times. */
  kindAt: Map<string, number[]>;
  /** Changes of any path strictly inside the folder. */
  inside: Map<string, number[]>;
  /** Changes that make, remove or rename a name directly in the folder. */
  namesIn: Map<string, number[]>;
}

const indexes = new WeakMap<Trace, ChangeIndex | null>();

/**
 * For each cut, a key that two cuts share only when they hold the same thing at every path of
 * `footprint` (see the top of this file); null for a cut whose disk is never shared.
 */
export function footprintKeys(trace: Trace, cuts: readonly Cut[], footprint: Footprint): (string | null)[] {
  const index = changeIndex(trace);
  if (!index) return cuts.map(() => null);
  // Two cuts hold the same thing wherever the recovery looked when no change that affects any
  // footprint path lies between them: the last such change before a cut is the cut's key.
  const lists: (number[] | undefined)[] = [];
  const ancestorsOf = (p: string) => ancestors(p).map((a) => index.at.get(a));
  for (const p of footprint.paths) lists.push(index.at.get(p), index.inside.get(p), ...ancestorsOf(p));
  for (const p of footprint.entries) lists.push(index.kindAt.get(p), ...ancestorsOf(p));
  for (const p of footprint.listings) lists.push(index.at.get(p), index.namesIn.get(p), ...ancestorsOf(p));
  const affecting = sortedUnion(lists);
  return cuts.map((cut) => {
    if (cut.power) return null;
    const last = String(lastBefore(affecting, cut.at));
    // A torn write leaves part of its bytes: only a cut torn at the same byte leaves the same file.
    return cut.bytes !== undefined && lastBefore(affecting, cut.at + 1) === cut.at ? `${last}+${cut.at}:${cut.bytes}` : last;
  });
}

/** True when the traces a disk is rebuilt from can be shared between (none of them has a link or a symbolic link). */
export function shareable(traces: readonly Trace[]): boolean {
  return traces.every((t) => changeIndex(t) !== null);
}

/** The changes of `trace` by path, or null when it has a link or a symbolic link; computed once per trace. */
function changeIndex(trace: Trace): ChangeIndex | null {
  let index = indexes.get(trace);
  if (index === undefined) {
    const changes = traceChanges(trace);
    index = changes && indexChanges(changes);
    indexes.set(trace, index);
  }
  return index;
}

function indexChanges(changes: readonly Changes[]): ChangeIndex {
  const index: ChangeIndex = { at: new Map(), kindAt: new Map(), inside: new Map(), namesIn: new Map() };
  const add = (map: Map<string, number[]>, key: string, at: number) => {
    const list = map.get(key);
    if (!list) map.set(key, [at]);
    else if (list[list.length - 1] !== at) list.push(at);
  };
  for (const c of changes) {
    for (const q of c.paths) {
      add(index.at, q, c.index);
      if (c.names || c.attr) add(index.kindAt, q, c.index);
      if (c.names) add(index.namesIn, parentOf(q), c.index);
      for (const a of ancestors(q)) add(index.inside, a, c.index);
    }
  }
  return index;
}

/** The folders above the stored path `p`, nearest first. */
function ancestors(p: string): string[] {
  const out: string[] = [];
  for (let slash = p.lastIndexOf("/"); slash > 0; slash = p.lastIndexOf("/", slash - 1)) out.push(p.slice(0, slash));
  return out;
}

/** The numbers of the sorted lists, once each, in order. */
function sortedUnion(lists: readonly (readonly number[] | undefined)[]): number[] {
  const all = lists.flatMap((l) => l ?? []).sort((a, b) => a - b);
  return all.filter((n, i) => i === 0 || all[i - 1] !== n);
}

/** What each entry of `trace` that changes the disk changes, in trace order; null when the trace has a link or a symbolic link. */
export function traceChanges({ entries }: { entries: readonly TraceEntry[] }): Changes[] | null {
  const out: Changes[] = [];
  // The names each open descriptor's file has had: a rename moves the file, and later writes land under the new name.
  const names = new Map<number, Set<string>>();
  for (let index = 0; index < entries.length; index++) {
    const e = entries[index]!;
    switch (e.kind) {
      case "open":
        names.set(e.fd, new Set([e.path]));
        if (changesDisk(e)) out.push({ index, paths: [e.path], names: opensToCreate(e.flags) });
        break;
      case "write":
      case "ftruncate":
        if (!names.has(e.fd)) return null; // a descriptor the trace did not open: its file is unknown
        out.push({ index, paths: [...names.get(e.fd)!], names: false });
        break;
      case "close":
        names.delete(e.fd);
        break;
      case "truncate":
      case "unlink":
      case "rmdir":
      case "mkdir":
        out.push({ index, paths: [e.path], names: e.kind !== "truncate" });
        break;
      case "rename":
        out.push({ index, paths: [e.from, e.to], names: true });
        for (const held of names.values()) {
          for (const p of [...held]) if (p === e.from || below(e.from, p)) held.add(e.to + p.slice(e.from.length));
        }
        break;
      case "attr":
        if (e.path !== undefined) out.push({ index, paths: [e.path], names: false, attr: true });
        else if (e.fd !== undefined && names.has(e.fd)) out.push({ index, paths: [...names.get(e.fd)!], names: false, attr: true });
        else return null;
        break;
      case "symlink":
      case "link":
        return null;
      default:
        break; // marks, effects, fsyncs
    }
  }
  return out;
}

/** True when `p` is strictly inside the folder `folder`. */
function below(folder: string, p: string): boolean {
  return p.length > folder.length && p.startsWith(folder) && p[folder.length] === "/";
}

function parentOf(p: string): string {
  const slash = p.lastIndexOf("/");
  return slash < 0 ? "" : p.slice(0, slash);
}

/** The largest index in the sorted `indexes` below `at`, or -1. */
function lastBefore(indexes: readonly number[], at: number): number {
  let lo = 0;
  let hi = indexes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (indexes[mid]! < at) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? -1 : indexes[lo - 1]!;
}
