// What a command did to the scenario folder, told by which file each path holds before and after
// it (its device and inode) rather than by its name alone:
// - a path that now holds a file another path held before, and that path no longer holds it:
//   the file was renamed (one `rename`, atomic: before or after, nothing between);
// - a path that now holds a file a path still holds: a hard link;
// - a path that holds the same file with other content: truncated and written in place (as `cp`
//   and `dd` write an existing destination; a crash may leave any prefix);
// - a path that holds a file no path held before: a new file, written whole (what was at the
//   path before is removed first, as a copy across file systems does: see materialise.ts);
// - folders renamed (by their inode) or made, links made, and what is gone, removed.
// The changes come in an order that turns the folder before into the folder after.
import type { Snapshot } from "./snapshot.js";

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
  // A path whose kind changed (a file that became a folder) goes first, so its new kind can be made.
  for (const [p] of [...sim].filter(([p, n]) => after.has(p) && after.get(p)!.kind !== n.kind).sort(([a], [b]) => a.length - b.length)) if (sim.has(p)) remove(p);

  // Folders: renamed when their inode moved, else made; parents first.
  for (const [p, n] of [...after].filter(([, n]) => n.kind === "dir").sort(([a], [b]) => a.length - b.length)) {
    if (sim.get(p)?.kind === "dir") continue;
    const from = [...sim].find(([q, m]) => m.kind === "dir" && m.id === n.id && after.get(q)?.id !== n.id)?.[0];
    if (from === undefined) {
      out.push({ kind: "mkdir", path: p, mode: n.mode });
      sim.set(p, n);
      continue;
    }
    out.push({ kind: "rename", from, to: p });
    for (const [q, m] of [...sim].filter(([q]) => q === from || q.startsWith(from + "/"))) sim.delete(q), sim.set(p + q.slice(from.length), m);
  }

  // Files renamed: the inode left a path that no longer holds it. A rename waits until its
  // destination's own file has moved on; a cycle (a swap) is broken by writing one of them anew.
  const digestOf = new Map([...before].map(([, n]) => [n.id, n.digest]));
  const files = [...after].filter(([, n]) => n.kind === "file").sort(([a], [b]) => a.localeCompare(b));
  const pending: { from: string; to: string }[] = [];
  const used = new Set<string>();
  for (const [p, n] of files) {
    if (sim.get(p)?.id === n.id) continue;
    const from = [...sim].find(([q, m]) => m.kind === "file" && m.id === n.id && after.get(q)?.id !== n.id && !used.has(q))?.[0];
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
    if (sim.get(p)?.kind === "link" && sim.get(p)!.sig === n.sig) continue;
    out.push({ kind: "symlink", target: n.sig, path: p });
    sim.set(p, n);
  }
  // What is gone, deepest first.
  for (const p of [...sim.keys()].filter((p) => !after.has(p)).sort(deepestFirst)) if (sim.has(p)) remove(p);
  return out;
}

function deepestFirst(a: string, b: string): number {
  return b.split("/").length - a.split("/").length || a.localeCompare(b);
}
