// The disk a power-loss model keeps while it reads a trace: files and folders by inode, as a real
// file system keeps them. A folder is a file of its own that holds its entries (a name and the
// inode it names), and each folder remembers its entries as of its last fsync; each file, its data
// as of its last fsync. Entries live in their folder, not under a path: a folder renamed takes its
// entries along, durable ones included. Paths resolve as the kernel resolves them: through
// symbolic links (a link's target "@/..." is inside the scenario), and an fd opened to append
// writes at the end whatever position it is given (Linux). What a cut leaves: power-loss.ts; what
// one inode holds and what an fsync does to it: power-nodes.ts.
import { normaliseName } from "./names.js";
import type { TraceEntry } from "./model.js";
import { displayPath } from "./trace.js";
import { type DirNode, type FileNode, loseFolderChanges, loseUnsynced, newDir, onDisk, type PowerNode, reachingDisk, resize, resizeMask, syncFile, syncFolder } from "./power-nodes.js";

/** The folders every scenario starts with, durable from the start. */
export const SCENARIO_DIRS = ["work", "cwd", "tmp"];
const ROOT = 1;
/** Links followed in one path at most before it counts as missing (ELOOP). */
const MAX_LINKS = 40;

export class PowerModel {
  readonly nodes = new Map<number, PowerNode>();
  private readonly fds = new Map<number, { inode: number; pos: number; append: boolean }>();
  private nextInode = ROOT;

  constructor() {
    this.make(newDir());
    for (const name of SCENARIO_DIRS) {
      const root = this.dir(ROOT)!;
      root.entries.set(name, this.make(newDir()));
      root.durable.set(name, root.entries.get(name)!);
    }
  }

  /** Applies one recorded operation; one the disk could not have made (a path outside the scenario, a missing folder) changes nothing. */
  apply(e: TraceEntry): void {
    switch (e.kind) {
      case "open": {
        const { create, truncate, append } = openFlags(e.flags);
        let inode = this.lookup(e.path, { follow: true });
        if (inode === undefined) {
          if (!create) return;
          const place = this.creationPlace(e.path);
          if (!place) return;
          inode = this.make({ kind: "file", data: Buffer.alloc(0), synced: Buffer.alloc(0), shortest: 0, fsynced: false });
          this.setEntry(place.dir, place.name, inode);
        }
        const node = this.nodes.get(inode)!;
        if (truncate && node.kind === "file") resize(node, 0);
        this.fds.set(e.fd, { inode, pos: 0, append });
        return;
      }
      case "write": {
        const fd = this.fds.get(e.fd);
        const node = fd && this.nodes.get(fd.inode);
        if (!fd || node?.kind !== "file") return;
        const at = fd.append ? node.data.length : (e.position ?? fd.pos);
        const end = at + e.bytes.byteLength;
        const data = Buffer.alloc(Math.max(node.data.length, end));
        node.data.copy(data);
        Buffer.from(e.bytes.buffer, e.bytes.byteOffset, e.bytes.byteLength).copy(data, at);
        node.data = data;
        // Bytes written again are dirty again: a later fsync can make them durable.
        if (node.lost) (node.lost = resizeMask(node.lost, data.length)).fill(0, at, end);
        if (e.position === null || fd.append) fd.pos = end;
        return;
      }
      case "ftruncate":
      case "truncate": {
        const inode = e.kind === "ftruncate" ? this.fds.get(e.fd)?.inode : this.lookup(e.path, { follow: true });
        const node = inode === undefined ? undefined : this.nodes.get(inode);
        if (node?.kind === "file") resize(node, e.length);
        return;
      }
      case "fsync": {
        const inode = this.fds.get(e.fd)?.inode;
        const node = inode === undefined ? undefined : this.nodes.get(inode);
        if (node?.kind === "file") e.failed ? loseUnsynced(node) : syncFile(node);
        else if (node?.kind === "dir") e.failed ? loseFolderChanges(node) : syncFolder(node);
        return;
      }
      case "close":
        this.fds.delete(e.fd);
        return;
      case "rename": {
        const from = this.parentOf(e.from);
        const to = this.parentOf(e.to);
        const inode = from && this.dir(from.dir)!.entries.get(from.name);
        if (!from || !to || inode === undefined) return;
        // Two names of one file: rename does nothing (POSIX).
        if (this.dir(to.dir)!.entries.get(to.name) === inode) return;
        this.setEntry(from.dir, from.name, undefined);
        this.setEntry(to.dir, to.name, inode);
        return;
      }
      case "unlink":
      case "rmdir": {
        const place = this.parentOf(e.path);
        if (place) this.setEntry(place.dir, place.name, undefined);
        return;
      }
      case "mkdir":
      case "symlink": {
        const place = this.parentOf(e.path);
        if (place) this.setEntry(place.dir, place.name, this.make(e.kind === "mkdir" ? newDir() : { kind: "symlink", target: e.target }));
        return;
      }
      case "link": {
        const inode = this.lookup(e.from, { follow: false });
        const place = this.parentOf(e.to);
        if (inode !== undefined && place) this.setEntry(place.dir, place.name, inode);
        return;
      }
    }
  }

  /**
   * Puts `image` in the model, all of it durable: the disk a trace began on when it was not an
   * empty one (a process started after a power cut, on what the cut left). `image` is each path
   * below the scenario folder and its node, as powerImage gives it; one node under two names is one
   * file with two links.
   */
  seed(image: ReadonlyMap<string, PowerNode>): void {
    const inodes = new Map<PowerNode, number>();
    const depth = (name: string) => name.split("/").length;
    for (const [name, node] of [...image].sort(([a], [b]) => depth(a) - depth(b) || (a < b ? -1 : 1))) {
      const place = this.parentOf(name);
      if (!place) continue;
      // The scenario's own folders are there from the start.
      if (node.kind === "dir" && this.dir(this.dir(place.dir)!.entries.get(place.name) ?? -1)) continue;
      let inode = inodes.get(node);
      if (inode === undefined) inodes.set(node, (inode = this.make(node.kind === "file" ? { kind: "file", data: Buffer.from(node.data), synced: Buffer.alloc(0), shortest: 0, fsynced: false } : node.kind === "dir" ? newDir() : { ...node })));
      this.setEntry(place.dir, place.name, inode);
    }
    this.settle();
  }

  /** Makes everything durable, as a sync of the whole file system would. */
  settle(): void {
    for (const node of this.nodes.values()) {
      if (node.kind === "file") syncFile(node);
      else if (node.kind === "dir") node.durable = new Map(reachingDisk(node));
    }
  }

  /** Every path below the scenario folder ("@/work/a") and its node, through each folder's entries as they reach the disk (`durable`: as of its last fsync). */
  tree(opts: { durable: boolean }): Map<string, PowerNode> {
    const out = new Map<string, PowerNode>([["@", this.nodes.get(ROOT)!]]);
    const seen = new Set<number>([ROOT]);
    const walk = (dir: DirNode, at: string) => {
      for (const [name, inode] of [...(opts.durable ? dir.durable : reachingDisk(dir))].sort(([a], [b]) => (a < b ? -1 : 1))) {
        const node = this.nodes.get(inode)!;
        // A folder met twice (renamed into its own old subfolder on the durable side) is shown once.
        if (node.kind === "dir" && seen.has(inode)) continue;
        out.set(`${at}/${name}`, node);
        if (node.kind === "dir") seen.add(inode), walk(node, `${at}/${name}`);
      }
    };
    walk(this.dir(ROOT)!, "@");
    return out;
  }

  /** The file or folder at `path` now (following links), if any. */
  nodeAt(path: string): PowerNode | undefined {
    const inode = this.lookup(path, { follow: true });
    return inode === undefined ? undefined : this.nodes.get(inode);
  }

  /** True when the entry `path` names now is what its folder's last fsync made durable. */
  entryDurable(path: string): boolean {
    const place = this.parentOf(path);
    if (!place) return false;
    const dir = this.dir(place.dir)!;
    return dir.durable.get(place.name) === reachingDisk(dir).get(place.name);
  }

  /** What was not durable at the cut, in words, for the story of a failure. */
  volatile(): string[] {
    const now = [...this.tree({ durable: false })];
    const files = now.filter((e): e is [string, FileNode] => e[1].kind === "file");
    const out: string[] = [];
    for (const [name, node] of files) {
      if (node.data.equals(node.synced)) continue;
      const synced = node.fsynced ? `${node.synced.length} bytes as of its last fsync` : "never fsynced";
      out.push(`the data of ${quote(name)} (${node.data.length} bytes, ${synced})`);
    }
    for (const [name, node] of files) {
      const lost = node.lost ? node.lost.reduce((n, b) => n + b, 0) : 0;
      if (lost > 0) out.push(`${lost} bytes of ${quote(name)} that a failed fsync lost (they never reach the disk unless written again)`);
    }
    for (const [at, dir] of now.filter((e): e is [string, DirNode] => e[1].kind === "dir")) {
      for (const name of dir.lost.keys()) out.push(`the change to the entry ${quote(`${at}/${name}`)}, which a failed fsync of its folder lost`);
      for (const name of new Set([...dir.entries.keys(), ...dir.durable.keys()])) {
        const [current, before] = [dir.entries.get(name), dir.durable.get(name)];
        if (current === before || dir.lost.has(name)) continue;
        const entry = quote(`${at}/${name}`);
        if (before === undefined) out.push(`the new entry ${entry} (its folder was not fsynced after it)`);
        else if (current === undefined) out.push(`the removal of ${entry} (its folder was not fsynced after it)`);
        else out.push(`the new file behind ${entry} (its folder was not fsynced after it changed)`);
      }
    }
    return out;
  }

  private make(node: PowerNode): number {
    this.nodes.set(this.nextInode, node);
    return this.nextInode++;
  }

  private dir(inode: number): DirNode | undefined {
    const node = this.nodes.get(inode);
    return node?.kind === "dir" ? node : undefined;
  }

  /** Sets (or, with undefined, removes) an entry now; a loss an earlier failed fsync of the folder caused no longer holds for it. */
  private setEntry(dirInode: number, name: string, inode: number | undefined): void {
    const dir = this.dir(dirInode)!;
    dir.lost.delete(name);
    inode === undefined ? dir.entries.delete(name) : dir.entries.set(name, inode);
  }

  /** The folder that holds `path`'s last name, resolved through the entries now, and that name. */
  private parentOf(path: string): { dir: number; name: string } | undefined {
    const cut = path.lastIndexOf("/");
    if (cut < 0) return undefined;
    const dir = this.lookup(path.slice(0, cut), { follow: true });
    return dir !== undefined && this.dir(dir) ? { dir, name: path.slice(cut + 1) } : undefined;
  }

  /** Where an open that creates `path` creates its file: through a dangling link at its end, where the link points. */
  private creationPlace(path: string, depth = 0): { dir: number; name: string } | undefined {
    const place = this.parentOf(path);
    const inode = place && this.dir(place.dir)!.entries.get(place.name);
    const node = inode === undefined ? undefined : this.nodes.get(inode);
    if (node?.kind !== "symlink") return place;
    return depth < MAX_LINKS ? this.creationPlace(resolveTarget(path, node.target), depth + 1) : undefined;
  }

  /** The inode at `path` now ("@/work/a"), following a link at its end when `follow`. */
  private lookup(path: string, opts: { follow: boolean }, depth = 0): number | undefined {
    const parts = path.split("/");
    if (parts[0] !== "@" || depth > MAX_LINKS) return undefined;
    let inode = ROOT;
    let at = "@";
    for (const [i, part] of parts.slice(1).entries()) {
      if (part === "" || part === ".") continue;
      const dir = this.dir(inode);
      const child = part === ".." ? undefined : dir?.entries.get(part);
      if (part === "..") {
        at = at.slice(0, Math.max(1, at.lastIndexOf("/")));
        inode = this.lookup(at, { follow: true }, depth + 1) ?? ROOT;
        continue;
      }
      if (child === undefined) return undefined;
      const node = this.nodes.get(child)!;
      const last = i === parts.length - 2;
      if (node.kind === "symlink" && (!last || opts.follow)) {
        const resolved = this.lookup(resolveTarget(`${at}/${part}`, node.target), { follow: true }, depth + 1);
        if (resolved === undefined) return undefined;
        inode = resolved;
      } else inode = child;
      at = `${at}/${part}`;
    }
    return inode;
  }
}

/** The path a link at `linkPath` with `target` names: "@/..." as it is, a relative target beside the link. */
function resolveTarget(linkPath: string, target: string): string {
  return target === "@" || target.startsWith("@/") ? target : `${linkPath.slice(0, linkPath.lastIndexOf("/"))}/${target}`;
}

function openFlags(flags: string | number): { create: boolean; truncate: boolean; append: boolean } {
  if (typeof flags === "number") return { create: (flags & 0o100) !== 0, truncate: (flags & 0o1000) !== 0, append: (flags & 0o2000) !== 0 };
  return { create: /[wa]/.test(flags), truncate: flags.includes("w"), append: flags.includes("a") };
}

function quote(stored: string): string {
  return JSON.stringify(normaliseName(displayPath(stored)));
}
