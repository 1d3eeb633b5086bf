// What a power cut leaves on disk, derived from the same recordings as a process crash. The model
// (after ALICE's abstract persistence model, and what LazyFS does on demand):
// - a file's data reaches the disk for sure only when the file is fsynced; until then the disk
//   may hold the data as of the last fsync, or only part of what was written since;
// - a directory entry (a file created, renamed, linked, removed) reaches the disk for sure only
//   when its folder is fsynced; until then the folder may still show its old entries;
// - the two are independent: a rename may reach the disk before the data of the file it names;
// - an fsync that failed (an I/O error) made nothing durable, and the bytes it was to write never
//   reach the disk, even through a later fsync that succeeds (the kernel marks them clean and
//   forgets them): only writing them again brings them back. A failed fsync of a folder loses its
//   unsynced entries the same way.
// Each policy below is one way the unsynced parts went; together they cover those failures.
import fs from "node:fs";
import path from "node:path";
import type { Cut, PowerPolicy, Trace } from "./model.js";
import { PowerModel, SCENARIO_DIRS } from "./power-model.js";
import { type FileNode, onDisk, type PowerNode } from "./power-nodes.js";
import { displayPath, inScenario } from "./trace.js";
import { normaliseName } from "./names.js";

/** The policies a power-loss check tries at each crash point (both kept is a process crash). */
export const POWER_POLICIES: readonly PowerPolicy[] = [
  { data: "lost", names: "kept" },
  { data: "partial", names: "kept" },
  { data: "lost", names: "lost" },
  { data: "kept", names: "lost" },
];

/**
 * The model after the trace's entries up to `cut` (a power cut lands between operations); all is
 * durable before `settled`. With `base`, the trace began on that disk (durable), not an empty one.
 */
export function modelAt(trace: Trace, cut: Cut, settled = cut.power?.settled ?? 0, base?: ReadonlyMap<string, PowerNode>): PowerModel {
  const model = new PowerModel();
  if (base) model.seed(base);
  for (let i = 0; i < Math.min(cut.at, trace.entries.length); i++) {
    if (i === settled) model.settle();
    model.apply(trace.entries[i]!);
  }
  if (settled >= cut.at) model.settle();
  return model;
}

/**
 * Writes into `root` what a power cut at `cut` leaves under `policy`. `root` is a fresh scenario
 * folder, or the disk an earlier power cut left (the machine came back up on it, so all of it is
 * durable), which the trace began on.
 */
export function powerReplay(trace: Trace, cut: Cut, policy: PowerPolicy, root: string): void {
  const real = (stored: string) => inScenario(root, stored);
  const base = diskImage(root);
  const image = powerImage(modelAt(trace, cut, undefined, base.size > 0 ? base : undefined), policy);
  if (base.size > 0) for (const dir of SCENARIO_DIRS) for (const name of fs.readdirSync(real(`@/${dir}`))) fs.rmSync(real(`@/${dir}/${name}`), { recursive: true, force: true });
  const written = new Map<PowerNode, string>();
  for (const [name, node] of image) {
    if (name === "@") continue;
    const first = written.get(node);
    if (node.kind === "dir") fs.mkdirSync(real(name), { recursive: true });
    else if (node.kind === "symlink") fs.symlinkSync(real(node.target), real(name));
    else if (first !== undefined) fs.linkSync(first, real(name)); // another name of one file: a hard link, as on the disk
    else fs.writeFileSync(real(name), node.data);
    written.set(node, real(name));
  }
}

/** The disk after a power cut under `policy`: each path and what it holds (a file with the data that survived). */
export function powerImage(model: PowerModel, policy: PowerPolicy): Map<string, PowerNode> {
  const out = new Map<string, PowerNode>();
  const files = new Map<PowerNode, PowerNode>();
  for (const [name, node] of model.tree({ durable: policy.names === "lost" })) {
    if (node.kind === "file" && !files.has(node)) files.set(node, { ...node, data: survivingData(node, policy) });
    out.set(name, files.get(node) ?? node);
  }
  return out;
}

/** "the data was lost", "half of the data reached the disk"...: a policy in words. */
export function describePolicy(policy: PowerPolicy): string {
  const data = { lost: "unsynced data was lost", partial: "only part of the unsynced data reached the disk", kept: "unsynced data reached the disk" }[policy.data];
  const names = policy.names === "lost" ? "folder changes not followed by an fsync of the folder were lost" : "folder changes reached the disk";
  return `${data}, and ${names}`;
}

/** A file's data after the cut: as of its last fsync, as written, or (partial) a prefix of what was written, never shorter than the file was since its last fsync (what that fsync made durable stays). */
function survivingData(node: FileNode, policy: PowerPolicy): Buffer {
  if (policy.data === "lost") return node.synced;
  const data = onDisk(node);
  if (policy.data === "kept" || data.equals(node.synced)) return data;
  return data.subarray(0, Math.max(node.shortest, Math.floor(data.length / 2)));
}

/** What the scenario folder `root` holds below its own folders, as powerImage gives a disk: each path ("@/work/a") and its node (one node for two links to one file). */
export function diskImage(root: string): Map<string, PowerNode> {
  const out = new Map<string, PowerNode>();
  const byInode = new Map<number, PowerNode>();
  const walk = (stored: string) => {
    for (const name of fs.readdirSync(inScenario(root, stored)).sort()) {
      const at = `${stored}/${name}`;
      const real = inScenario(root, at);
      const stat = fs.lstatSync(real);
      if (stat.isDirectory()) {
        out.set(at, { kind: "dir", entries: new Map(), durable: new Map(), lost: new Map() });
        walk(at);
      } else if (stat.isSymbolicLink()) {
        const target = fs.readlinkSync(real);
        const inside = path.isAbsolute(target) && target.startsWith(root + path.sep);
        out.set(at, { kind: "symlink", target: inside ? `@/${path.relative(root, target)}` : target });
      } else if (stat.isFile()) {
        let node = byInode.get(stat.ino);
        if (!node) byInode.set(stat.ino, (node = { kind: "file", data: fs.readFileSync(real), synced: Buffer.alloc(0), shortest: 0, fsynced: false }));
        out.set(at, node);
      }
    }
  };
  for (const dir of SCENARIO_DIRS) if (fs.existsSync(inScenario(root, `@/${dir}`))) walk(`@/${dir}`);
  return out;
}

/**
 * The step the write is missing, judged from its trace between `from` and `to`: the renamed
 * file's data not fsynced before the rename onto the checkpoint ("data"), or the folder not
 * fsynced after it ("folder"); in words, and as data.
 */
export function missingStep(trace: Trace, from: number, to: number, checkpoint = "@/work/checkpoint.json"): { words: string; step: "data" | "data-flush-ignored" | "folder" } | null {
  let renameAt = -1;
  for (let i = from; i < to; i++) {
    const e = trace.entries[i]!;
    if (e.kind === "rename" && e.to === checkpoint) renameAt = i;
  }
  if (renameAt === -1) return null;
  const rename = trace.entries[renameAt] as Extract<Trace["entries"][number], { kind: "rename" }>;
  const before = modelAt(trace, { at: renameAt }, from);
  const node = before.nodeAt(rename.from);
  if (node?.kind === "file" && !node.data.equals(node.synced)) {
    const unsynced = `the data of ${JSON.stringify(normaliseName(displayPath(rename.from)))} was never fsynced before the rename`;
    const skippedBy = flushIgnoredOn(trace, from, renameAt, rename.from);
    return { step: skippedBy ? "data-flush-ignored" : "data", words: skippedBy ? `${unsynced}. On Node ${skippedBy}, writeFileSync with a string and an encoding ignores \`flush: true\` (a bug in Node), so nothing fsynced that file` : unsynced };
  }
  const after = modelAt(trace, { at: to }, from);
  if (!after.entryDurable(checkpoint)) {
    return { step: "folder", words: `the folder was not fsynced after the rename onto ${JSON.stringify(displayPath(checkpoint))}, so the rename itself may not survive` };
  }
  return null;
}

/** The Node version whose writeFileSync wrote `file` between `from` and `to`, was asked to flush, and made no fsync; null if none did. */
function flushIgnoredOn(trace: Trace, from: number, to: number, file: string): string | null {
  const opensOfFile = new Set<number>();
  for (let i = from; i < to; i++) {
    const e = trace.entries[i]!;
    if (e.kind === "open" && e.path === file) opensOfFile.add(e.fd);
    if (e.kind === "write" && e.flushIgnored && opensOfFile.has(e.fd)) return e.flushIgnored;
  }
  return null;
}
