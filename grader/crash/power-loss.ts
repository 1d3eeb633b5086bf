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
import type { Cut, PowerPolicy, Trace, TraceEntry } from "./model.js";
import { normaliseName } from "./names.js";
import { displayPath } from "./trace.js";

/** The policies a power-loss check tries at each crash point (both kept is a process crash). */
export const POWER_POLICIES: readonly PowerPolicy[] = [
  { data: "lost", names: "kept" },
  { data: "partial", names: "kept" },
  { data: "lost", names: "lost" },
  { data: "kept", names: "lost" },
];

/** `lost` marks the bytes of `data` a failed fsync lost (1: lost), when one did. */
type Node = { kind: "file"; data: Buffer; synced: Buffer; lost?: Uint8Array } | { kind: "dir" } | { kind: "symlink"; target: string };

/** The folders every scenario starts with, durable from the start. */
const SCENARIO_DIRS = ["@", "@/work", "@/cwd", "@/tmp"];

/** Files and folders by inode, and the names pointing at them now and as of each folder's last fsync. */
export class PowerModel {
  readonly nodes = new Map<number, Node>();
  readonly names = new Map<string, number>();
  readonly durable = new Map<string, number>();
  /** Entries a failed fsync of their folder lost: what the disk holds for each (an inode, or nothing). */
  readonly lostNames = new Map<string, number | undefined>();
  private readonly fds = new Map<number, { inode: number; path: string; pos: number; append: boolean }>();
  private nextInode = 1;

  constructor() {
    for (const dir of SCENARIO_DIRS) this.durable.set(dir, this.create(dir, { kind: "dir" }));
  }

  /** Applies one recorded operation. */
  apply(e: TraceEntry): void {
    switch (e.kind) {
      case "open": {
        const { create, truncate, append } = openFlags(e.flags);
        let inode = this.names.get(e.path);
        if (inode === undefined) inode = this.create(e.path, { kind: create ? "file" : "dir", data: Buffer.alloc(0), synced: Buffer.alloc(0) } as Node);
        const node = this.nodes.get(inode)!;
        if (truncate && node.kind === "file") {
          node.data = Buffer.alloc(0);
          if (node.lost) node.lost = new Uint8Array(0);
        }
        this.fds.set(e.fd, { inode, path: e.path, pos: 0, append });
        break;
      }
      case "write": {
        const fd = this.fds.get(e.fd);
        const node = fd && this.nodes.get(fd.inode);
        if (!fd || node?.kind !== "file") break;
        const at = e.position ?? (fd.append ? node.data.length : fd.pos);
        const end = at + e.bytes.byteLength;
        const data = Buffer.alloc(Math.max(node.data.length, end));
        node.data.copy(data);
        Buffer.from(e.bytes.buffer, e.bytes.byteOffset, e.bytes.byteLength).copy(data, at);
        node.data = data;
        // Bytes written again are dirty again: a later fsync can make them durable.
        if (node.lost) (node.lost = resizeMask(node.lost, data.length)).fill(0, at, end);
        if (e.position === null) fd.pos = end;
        break;
      }
      case "ftruncate":
      case "truncate": {
        const inode = e.kind === "ftruncate" ? this.fds.get(e.fd)?.inode : this.names.get(e.path);
        const node = inode === undefined ? undefined : this.nodes.get(inode);
        if (node?.kind === "file") {
          node.data = resize(node.data, e.length);
          if (node.lost) node.lost = resizeMask(node.lost, e.length);
        }
        break;
      }
      case "fsync": {
        const fd = this.fds.get(e.fd);
        const node = fd && this.nodes.get(fd.inode);
        if (e.failed) {
          if (node?.kind === "file") loseUnsynced(node);
          else if (fd && node?.kind === "dir") this.loseFolderChanges(fd.path);
        } else if (node?.kind === "file") node.synced = onDisk(node);
        else if (fd && node?.kind === "dir") this.syncFolder(fd.path);
        break;
      }
      case "close":
        this.fds.delete(e.fd);
        break;
      case "rename": {
        this.renamed(e.from);
        this.renamed(e.to);
        for (const [name, inode] of [...this.names]) {
          if (name !== e.from && !name.startsWith(e.from + "/")) continue;
          this.names.delete(name);
          this.names.set(e.to + name.slice(e.from.length), inode);
        }
        break;
      }
      case "unlink":
      case "rmdir":
        this.renamed(e.path);
        this.names.delete(e.path);
        break;
      case "mkdir":
        this.create(e.path, { kind: "dir" });
        break;
      case "symlink":
        this.create(e.path, { kind: "symlink", target: e.target });
        break;
      case "link": {
        const inode = this.names.get(e.from);
        this.renamed(e.to);
        if (inode !== undefined) this.names.set(e.to, inode);
        break;
      }
    }
  }

  /** The disk after a power cut under `policy`: path to content (a Buffer), "dir", or a symlink. */
  image(policy: PowerPolicy): Map<string, Node> {
    const names = policy.names === "lost" ? this.durable : this.namesReachingDisk();
    const out = new Map<string, Node>();
    for (const [name, inode] of [...names].sort(([a], [b]) => a.length - b.length)) {
      if (name !== "@" && !out.has(path.posix.dirname(name))) continue; // its folder did not survive
      const node = this.nodes.get(inode)!;
      out.set(name, node.kind === "file" ? { ...node, data: survivingData(node, policy) } : node);
    }
    return out;
  }

  /** What was not durable at the cut, in words, for the story of a failure. */
  volatile(): string[] {
    const out: string[] = [];
    for (const [name, inode] of this.names) {
      const node = this.nodes.get(inode)!;
      if (node.kind === "file" && !node.data.equals(node.synced)) {
        out.push(`the data of ${quote(name)} (${node.data.length} bytes, ${node.synced.length === 0 ? "never fsynced" : `${node.synced.length} bytes as of its last fsync`})`);
      }
    }
    for (const [name, inode] of this.names) {
      const node = this.nodes.get(inode)!;
      const lost = node.kind === "file" && node.lost ? node.lost.reduce((n, b) => n + b, 0) : 0;
      if (lost > 0) out.push(`${lost} bytes of ${quote(name)} that a failed fsync lost (they never reach the disk unless written again)`);
    }
    for (const name of this.lostNames.keys()) out.push(`the change to the entry ${quote(name)}, which a failed fsync of its folder lost`);
    const entries = new Set([...this.names.keys(), ...this.durable.keys()]);
    for (const name of entries) {
      const now = this.names.get(name);
      const before = this.durable.get(name);
      if (now === before || this.lostNames.has(name)) continue;
      if (before === undefined) out.push(`the new entry ${quote(name)} (its folder was not fsynced after it)`);
      else if (now === undefined) out.push(`the removal of ${quote(name)} (its folder was not fsynced after it)`);
      else out.push(`the new file behind ${quote(name)} (its folder was not fsynced after the rename)`);
    }
    return out;
  }

  /** Makes everything durable, as a sync of the whole file system would. */
  settle(): void {
    for (const node of this.nodes.values()) if (node.kind === "file") node.synced = onDisk(node);
    this.durable.clear();
    for (const [name, inode] of this.namesReachingDisk()) this.durable.set(name, inode);
  }

  /** The entries as they are now, except those a failed fsync of their folder lost (the disk keeps the old ones). */
  private namesReachingDisk(): Map<string, number> {
    if (this.lostNames.size === 0) return this.names;
    const out = new Map(this.names);
    for (const [name, inode] of this.lostNames) inode === undefined ? out.delete(name) : out.set(name, inode);
    return out;
  }

  /** A failed fsync of folder `dir`: its entries not yet durable never reach the disk as they are. */
  private loseFolderChanges(dir: string): void {
    for (const name of new Set([...this.names.keys(), ...this.durable.keys()])) {
      if (path.posix.dirname(name) !== dir || name === dir) continue;
      if (this.names.get(name) !== this.durable.get(name)) this.lostNames.set(name, this.durable.get(name));
    }
  }

  /** The entry `name` (and what is below it) changes again: a loss an earlier failed fsync caused no longer holds for it. */
  private renamed(name: string): void {
    for (const lost of [...this.lostNames.keys()]) if (lost === name || lost.startsWith(name + "/")) this.lostNames.delete(lost);
  }

  private create(name: string, node: Node): number {
    this.renamed(name);
    const inode = this.nextInode++;
    this.nodes.set(inode, node);
    this.names.set(name, inode);
    return inode;
  }

  /** fsync of a folder: its entries, as they are now, become durable. */
  private syncFolder(dir: string): void {
    for (const name of new Set([...this.names.keys(), ...this.durable.keys()])) {
      if (path.posix.dirname(name) !== dir || name === dir) continue;
      this.lostNames.delete(name);
      const inode = this.names.get(name);
      if (inode === undefined) this.durable.delete(name);
      else this.durable.set(name, inode);
    }
  }
}

/** The model after the trace's entries up to `cut` (a power cut lands between operations); all is durable before `settled`. */
export function modelAt(trace: Trace, cut: Cut, settled = cut.power?.settled ?? 0): PowerModel {
  const model = new PowerModel();
  for (let i = 0; i < Math.min(cut.at, trace.entries.length); i++) {
    if (i === settled) model.settle();
    model.apply(trace.entries[i]!);
  }
  if (settled >= cut.at) model.settle();
  return model;
}

/** Writes into `root` (a fresh scenario folder) what a power cut at `cut` leaves under `policy`. */
export function powerReplay(trace: Trace, cut: Cut, policy: PowerPolicy, root: string): void {
  for (const [name, node] of modelAt(trace, cut).image(policy)) {
    if (name === "@" || !name.startsWith("@/")) continue;
    const file = path.join(root, name.slice(2));
    if (node.kind === "dir") fs.mkdirSync(file, { recursive: true });
    else if (node.kind === "symlink") fs.symlinkSync(node.target, file);
    else fs.writeFileSync(file, node.data);
  }
}

/** "the data was lost", "half of the data reached the disk"...: a policy in words. */
export function describePolicy(policy: PowerPolicy): string {
  const data = { lost: "unsynced data was lost", partial: "only part of the unsynced data reached the disk", kept: "unsynced data reached the disk" }[policy.data];
  const names = policy.names === "lost" ? "folder changes not followed by an fsync of the folder were lost" : "folder changes reached the disk";
  return `${data}, and ${names}`;
}

function survivingData(node: FileNode, policy: PowerPolicy): Buffer {
  if (policy.data === "lost") return node.synced;
  const data = onDisk(node);
  if (policy.data === "kept" || data.equals(node.synced)) return data;
  return data.subarray(0, Math.floor(data.length / 2));
}

type FileNode = Extract<Node, { kind: "file" }>;

/** The file's bytes as writing them out can make them: those a failed fsync lost are what the disk held there (zeros past its end). */
function onDisk(node: FileNode): Buffer {
  if (!node.lost) return Buffer.from(node.data);
  const out = Buffer.from(node.data);
  for (let i = 0; i < out.length; i++) if (node.lost[i]) out[i] = i < node.synced.length ? node.synced[i]! : 0;
  return out;
}

/** A failed fsync: every byte not yet durable is lost. */
function loseUnsynced(node: FileNode): void {
  const lost = resizeMask(node.lost ?? new Uint8Array(0), node.data.length);
  for (let i = 0; i < node.data.length; i++) if (i >= node.synced.length || node.data[i] !== node.synced[i]) lost[i] = 1;
  node.lost = lost;
}

function resizeMask(mask: Uint8Array, length: number): Uint8Array {
  if (mask.length === length) return mask;
  const out = new Uint8Array(length);
  out.set(mask.subarray(0, length));
  return out;
}

function openFlags(flags: string | number): { create: boolean; truncate: boolean; append: boolean } {
  if (typeof flags === "number") return { create: (flags & 0o100) !== 0, truncate: (flags & 0o1000) !== 0, append: (flags & 0o2000) !== 0 };
  return { create: /[wa]/.test(flags), truncate: flags.includes("w"), append: flags.includes("a") };
}

function resize(data: Buffer, length: number): Buffer {
  if (length <= data.length) return Buffer.from(data.subarray(0, length));
  const out = Buffer.alloc(length);
  data.copy(out);
  return out;
}

function quote(stored: string): string {
  return JSON.stringify(normaliseName(displayPath(stored)));
}
