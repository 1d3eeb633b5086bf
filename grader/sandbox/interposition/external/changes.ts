// What a command did to the scenario folder, told by which file each path holds before and after
// it (its device and inode) rather than by its name alone:
// - a path that now holds a file another path held before, and that path no longer holds it:
//   the file was renamed (one `rename`, atomic: before or after, nothing between);
// - a path that now holds a file a path still holds: a hard link;
// - a path that holds the same file with other content: truncated and written in place (as `cp`
//   and `dd` write an existing destination; a crash may leave any prefix);
// - a path that holds a file no path held before: a new file, written whole (what was at the
//   path before is removed first, as a copy across file systems does: see materialise.ts);
// - folders and links renamed (by their inode) or made, and what is gone, removed.
// The changes come in an order that turns the folder before into the folder after.
import path from "node:path";
import type { Snapshot, SnapshotNode } from "./snapshot.js";

/** One change, on paths relative to the scenario folder. */
export type Change =
  | { kind: "mkdir"; path: string; mode: number }
  | { kind: "rename"; from: string; to: string }
  /** `path` written with the content `from` holds after the command; `fresh`: a new file (what was at `path` goes), else in place. */
  | { kind: "write"; path: string; from: string; fresh: boolean; mode: number }
  | { kind: "link"; from: string; to: string }
  | { kind: "symlink"; target: string; path: string }
  | { kind: "remove"; path: string };

/** The changes that turn `before` into `after`, in an order that can be applied one by one. */
export function changesBetween(before: Snapshot, after: Snapshot): Change[] {
  const sim = new Map(before);
  const out: Change[] = [];
  const remove = (p: string) => {
    for (const q of [...sim.keys()].filter((q) => q.startsWith(p + "/")).sort(deepestFirst)) out.push({ kind: "remove", path: q }), sim.delete(q);
    out.push({ kind: "remove", path: p });
    sim.delete(p);
  };
  // A path that became a folder, or stopped being one, goes first, so its new kind can be made. A
  // file that became a link or a link a file is replaced where it stands, as a rename over it
  // replaces it: no moment without the name.
  const folderChanged = (p: string, n: SnapshotNode) => after.has(p) && after.get(p)!.kind !== n.kind && (n.kind === "dir" || after.get(p)!.kind === "dir");
  for (const [p] of [...sim].filter(([p, n]) => folderChanged(p, n)).sort(([a], [b]) => a.length - b.length)) if (sim.has(p)) remove(p);

  placeFolders(sim, after, out, remove);

  // Files and links renamed: the inode left a path that no longer holds it. A rename waits until
  // its destination's own file has moved on; a cycle (a swap) is broken by writing one of them anew.
  const digestOf = new Map([...before].map(([, n]) => [n.id, n.digest]));
  const files = [...after].filter(([, n]) => n.kind === "file").sort(([a], [b]) => a.localeCompare(b));
  const moved = [...after].filter(([, n]) => n.kind !== "dir").sort(([a], [b]) => a.localeCompare(b));
  const pending: { from: string; to: string }[] = [];
  const used = new Set<string>();
  for (const [p, n] of moved) {
    if (sim.get(p)?.id === n.id) continue;
    const from = [...sim].find(([q, m]) => m.kind === n.kind && m.id === n.id && after.get(q)?.id !== n.id && !used.has(q))?.[0];
    if (from !== undefined) pending.push({ from, to: p }), used.add(from);
  }
  while (pending.length > 0) {
    const ready = pending.findIndex((r) => !pending.some((s) => s.from === r.to));
    const [r] = pending.splice(ready === -1 ? 0 : ready, 1);
    if (ready === -1) continue; // a cycle: this destination is written anew below
    out.push({ kind: "rename", from: r!.from, to: r!.to });
    sim.set(r!.to, sim.get(r!.from)!);
    sim.delete(r!.from);
  }

  // Content written in place, then new files, then hard links to what is there by then.
  for (const [p, n] of files) {
    if (sim.get(p)?.id === n.id && n.digest !== digestOf.get(n.id)) out.push({ kind: "write", path: p, from: p, fresh: false, mode: n.mode });
  }
  for (const [p, n] of files) {
    if (sim.get(p)?.id === n.id || [...sim.values()].some((m) => m.id === n.id)) continue;
    out.push({ kind: "write", path: p, from: p, fresh: true, mode: n.mode });
    sim.set(p, n);
  }
  for (const [p, n] of files) {
    if (sim.get(p)?.id === n.id) continue;
    const from = [...sim].find(([, m]) => m.id === n.id)![0];
    out.push({ kind: "link", from, to: p });
    sim.set(p, n);
  }
  for (const [p, n] of [...after].filter(([, n]) => n.kind === "link")) {
    if (sim.get(p)?.kind === "link" && (sim.get(p)!.sig === n.sig || sim.get(p)!.id === n.id)) continue;
    out.push({ kind: "symlink", target: n.sig, path: p });
    sim.set(p, n);
  }
  // What is gone, deepest first.
  for (const p of [...sim.keys()].filter((p) => !after.has(p)).sort(deepestFirst)) if (sim.has(p)) remove(p);
  return out;
}

/**
 * Folders: renamed when their inode moved, else made. A folder waits until its parent is the one
 * it has after and its path is free: a folder still there that moves away later goes first
 * (`mv -T d e && mkdir d`), one that is gone for good is removed first (`rm -r d && mkdir d`). A
 * cycle of folders (a swap) is broken by making one of them anew.
 */
function placeFolders(sim: Snapshot, after: Snapshot, out: Change[], remove: (p: string) => void): void {
  const ids = new Set([...after.values()].map((n) => n.id));
  const settled = (p: string) => path.posix.dirname(p) === "." || sim.get(path.posix.dirname(p))?.id === after.get(path.posix.dirname(p))?.id;
  const pending = [...after].filter(([p, n]) => n.kind === "dir" && sim.get(p)?.id !== n.id).sort(([a], [b]) => a.length - b.length);
  const free = (p: string) => !sim.has(p) || !ids.has(sim.get(p)!.id);
  while (pending.length > 0) {
    const next = pending.findIndex(([p]) => settled(p) && free(p));
    const [[p, n]] = pending.splice(next === -1 ? 0 : next, 1) as [[string, SnapshotNode]];
    if (sim.has(p)) remove(p);
    const from = [...sim].find(([q, m]) => m.kind === "dir" && m.id === n.id && after.get(q)?.id !== n.id)?.[0];
    if (from === undefined || next === -1) {
      out.push({ kind: "mkdir", path: p, mode: n.mode });
      sim.set(p, n);
      continue;
    }
    out.push({ kind: "rename", from, to: p });
    for (const [q, m] of [...sim].filter(([q]) => q === from || q.startsWith(from + "/"))) sim.delete(q), sim.set(p + q.slice(from.length), m);
  }
}

function deepestFirst(a: string, b: string): number {
  return b.split("/").length - a.split("/").length || a.localeCompare(b);
}
