// What a power cut leaves on disk, derived from the same recordings as a process crash. The model
// (after ALICE's abstract persistence model, and what LazyFS does on demand):
// - a file's data reaches the disk for sure only when the file is fsynced; until then the disk
//   may hold the data as of the last fsync, or only part of what was written since;
// - a directory entry (a file created, renamed, linked, removed) reaches the disk for sure only
//   when its folder is fsynced; until then the folder may still show its old entries;
// - the two are independent: a rename may reach the disk before the data of the file it names.
// Each policy below is one way the unsynced parts went; together they cover those failures.
import fs from "node:fs";
import path from "node:path";
import { normaliseName } from "./describe.js";
import type { Cut } from "./replay.js";
import { displayPath, type Trace, type TraceEntry } from "./trace.js";

/** What became of what was not yet durable at the power cut. */
export interface PowerPolicy {
  /** Everything done before this entry is durable (an old checkpoint written long before). */
  settled?: number;
  /** Unsynced file data: all lost, the first half of the file's new content kept, or all kept. */
  data: "lost" | "partial" | "kept";
  /** Unsynced directory entries: lost (the folder as of its last fsync), or kept. */
  names: "lost" | "kept";
}

/** The policies a power-loss check tries at each crash point (both kept is a process crash). */
export const POWER_POLICIES: readonly PowerPolicy[] = [
  { data: "lost", names: "kept" },
  { data: "partial", names: "kept" },
  { data: "lost", names: "lost" },
  { data: "kept", names: "lost" },
];

type Node = { kind: "file"; data: Buffer; synced: Buffer } | { kind: "dir" } | { kind: "symlink"; target: string };

/** The folders every scenario starts with, durable from the start. */
const SCENARIO_DIRS = ["@", "@/work", "@/cwd", "@/tmp"];

/** Files and folders by inode, and the names pointing at them now and as of each folder's last fsync. */
export class PowerModel {
  readonly nodes = new Map<number, Node>();
  readonly names = new Map<string, number>();
  readonly durable = new Map<string, number>();
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
        if (truncate && node.kind === "file") node.data = Buffer.alloc(0);
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
        if (e.position === null) fd.pos = end;
        break;
      }
      case "ftruncate":
      case "truncate": {
        const inode = e.kind === "ftruncate" ? this.fds.get(e.fd)?.inode : this.names.get(e.path);
        const node = inode === undefined ? undefined : this.nodes.get(inode);
        if (node?.kind === "file") node.data = resize(node.data, e.length);
        break;
      }
      case "fsync": {
        const fd = this.fds.get(e.fd);
        const node = fd && this.nodes.get(fd.inode);
        if (node?.kind === "file") node.synced = Buffer.from(node.data);
        else if (fd && node?.kind === "dir") this.syncFolder(fd.path);
        break;
      }
      case "close":
        this.fds.delete(e.fd);
        break;
      case "rename": {
        for (const [name, inode] of [...this.names]) {
          if (name !== e.from && !name.startsWith(e.from + "/")) continue;
          this.names.delete(name);
          this.names.set(e.to + name.slice(e.from.length), inode);
        }
        break;
      }
      case "unlink":
      case "rmdir":
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
        if (inode !== undefined) this.names.set(e.to, inode);
        break;
      }
    }
  }

  /** The disk after a power cut under `policy`: path to content (a Buffer), "dir", or a symlink. */
  image(policy: PowerPolicy): Map<string, Node> {
    const names = policy.names === "lost" ? this.durable : this.names;
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
    const entries = new Set([...this.names.keys(), ...this.durable.keys()]);
    for (const name of entries) {
      const now = this.names.get(name);
      const before = this.durable.get(name);
      if (now === before) continue;
      if (before === undefined) out.push(`the new entry ${quote(name)} (its folder was not fsynced after it)`);
      else if (now === undefined) out.push(`the removal of ${quote(name)} (its folder was not fsynced after it)`);
      else out.push(`the new file behind ${quote(name)} (its folder was not fsynced after the rename)`);
    }
    return out;
  }

  /** Makes everything durable, as a sync of the whole file system would. */
  settle(): void {
    for (const node of this.nodes.values()) if (node.kind === "file") node.synced = Buffer.from(node.data);
    this.durable.clear();
    for (const [name, inode] of this.names) this.durable.set(name, inode);
  }

  private create(name: string, node: Node): number {
    const inode = this.nextInode++;
    this.nodes.set(inode, node);
    this.names.set(name, inode);
    return inode;
  }

  /** fsync of a folder: its entries, as they are now, become durable. */
  private syncFolder(dir: string): void {
    for (const name of new Set([...this.names.keys(), ...this.durable.keys()])) {
      if (path.posix.dirname(name) !== dir || name === dir) continue;
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

function survivingData(node: Extract<Node, { kind: "file" }>, policy: PowerPolicy): Buffer {
  if (policy.data === "kept" || node.data.equals(node.synced)) return node.data;
  if (policy.data === "lost") return node.synced;
  return node.data.subarray(0, Math.floor(node.data.length / 2));
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
