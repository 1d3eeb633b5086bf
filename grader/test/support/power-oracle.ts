// A disk as the power-loss model describes it, written from its description alone, for the model
// tests to judge crash/power-loss.ts by: a folder is a file of its own that holds its entries (a
// name and the file or folder it names), and a power cut keeps, of each folder, the entries as of
// its last fsync, and of each file, the data as of its last fsync. Entries live in their folder,
// not under a path: a folder renamed takes its entries along. Writes land as Linux puts them (a
// descriptor opened to append writes at the end, whatever position it is given).
import type { FsOp } from "../../crash/model.js";

type OracleNode =
  | { kind: "file"; data: Buffer; synced: Buffer; /** The shortest the file was since its last fsync. */ shortest: number }
  | { kind: "dir"; entries: Map<string, number>; durable: Map<string, number> }
  | { kind: "symlink"; target: string };

/** What a path holds in an image: "dir", "-> target", or a file's inode. */
export type Held = { kind: "dir" } | { kind: "symlink"; target: string } | { kind: "file"; inode: number };

export class DiskOracle {
  private readonly nodes = new Map<number, OracleNode>();
  private readonly fds = new Map<number, { inode: number; pos: number; append: boolean }>();
  private next = 1;
  private readonly root: number;

  constructor() {
    this.root = this.make({ kind: "dir", entries: new Map(), durable: new Map() });
    for (const name of ["work", "cwd", "tmp"]) {
      const dir = this.dir(this.root);
      dir.entries.set(name, this.make({ kind: "dir", entries: new Map(), durable: new Map() }));
      dir.durable.set(name, dir.entries.get(name)!);
    }
  }

  /** The file an inode is (for its data now, as of its last fsync, and its shortest since). */
  file(inode: number): Extract<OracleNode, { kind: "file" }> {
    const node = this.nodes.get(inode);
    if (node?.kind !== "file") throw new Error(`oracle: ${inode} is not a file`);
    return node;
  }

  apply(op: FsOp): void {
    switch (op.kind) {
      case "open": {
        const { create, truncate, append } = flagsOf(op.flags);
        let inode = this.lookup(op.path, true);
        if (inode === undefined) {
          if (!create) throw new Error(`oracle: open of missing ${op.path}`);
          const [dir, name] = this.parent(this.danglingTarget(op.path));
          inode = this.make({ kind: "file", data: Buffer.alloc(0), synced: Buffer.alloc(0), shortest: 0 });
          this.dir(dir).entries.set(name, inode);
        }
        const node = this.nodes.get(inode)!;
        if (truncate && node.kind === "file") this.resize(node, 0);
        this.fds.set(op.fd, { inode, pos: 0, append });
        break;
      }
      case "write": {
        const fd = this.fds.get(op.fd)!;
        const node = this.file(fd.inode);
        const at = fd.append ? node.data.length : (op.position ?? fd.pos);
        const end = at + op.bytes.byteLength;
        const data = Buffer.alloc(Math.max(node.data.length, end));
        node.data.copy(data);
        Buffer.from(op.bytes).copy(data, at);
        node.data = data;
        if (op.position === null) fd.pos = end;
        break;
      }
      case "ftruncate":
        this.resize(this.file(this.fds.get(op.fd)!.inode), op.length);
        break;
      case "truncate":
        this.resize(this.file(this.lookup(op.path, true)!), op.length);
        break;
      case "fsync": {
        if (op.failed) throw new Error("oracle: failed fsyncs are not modelled here");
        const node = this.nodes.get(this.fds.get(op.fd)!.inode)!;
        if (node.kind === "file") (node.synced = Buffer.from(node.data)), (node.shortest = node.data.length);
        else if (node.kind === "dir") node.durable = new Map(node.entries);
        break;
      }
      case "close":
        this.fds.delete(op.fd);
        break;
      case "rename": {
        const [fromDir, fromName] = this.parent(op.from);
        const [toDir, toName] = this.parent(op.to);
        const inode = this.dir(fromDir).entries.get(fromName)!;
        // Two names of one file: rename does nothing (POSIX).
        if (this.dir(toDir).entries.get(toName) === inode) break;
        this.dir(fromDir).entries.delete(fromName);
        this.dir(toDir).entries.set(toName, inode);
        break;
      }
      case "unlink":
      case "rmdir": {
        const [dir, name] = this.parent(op.path);
        this.dir(dir).entries.delete(name);
        break;
      }
      case "mkdir": {
        const [dir, name] = this.parent(op.path);
        this.dir(dir).entries.set(name, this.make({ kind: "dir", entries: new Map(), durable: new Map() }));
        break;
      }
      case "symlink": {
        const [dir, name] = this.parent(op.path);
        this.dir(dir).entries.set(name, this.make({ kind: "symlink", target: op.target }));
        break;
      }
      case "link": {
        const [dir, name] = this.parent(op.to);
        this.dir(dir).entries.set(name, this.lookup(op.from, false)!);
        break;
      }
      case "attr":
        break;
    }
  }

  /** Everything made durable, as a sync of the whole disk would. */
  settle(): void {
    for (const node of this.nodes.values()) {
      if (node.kind === "file") (node.synced = Buffer.from(node.data)), (node.shortest = node.data.length);
      else if (node.kind === "dir") node.durable = new Map(node.entries);
    }
  }

  /** Every path below the scenario folder ("@/work/a") and what it holds: with `durable`, through each folder's entries as of its last fsync. */
  tree(durable: boolean): Map<string, Held> {
    const out = new Map<string, Held>();
    const walk = (inode: number, at: string) => {
      const dir = this.dir(inode);
      for (const [name, child] of durable ? dir.durable : dir.entries) {
        const p = `${at}/${name}`;
        const node = this.nodes.get(child)!;
        if (node.kind === "dir") out.set(p, { kind: "dir" }), walk(child, p);
        else if (node.kind === "symlink") out.set(p, { kind: "symlink", target: node.target });
        else out.set(p, { kind: "file", inode: child });
      }
    };
    walk(this.root, "@");
    return out;
  }

  private make(node: OracleNode): number {
    const inode = this.next++;
    this.nodes.set(inode, node);
    return inode;
  }

  private dir(inode: number): Extract<OracleNode, { kind: "dir" }> {
    const node = this.nodes.get(inode);
    if (node?.kind !== "dir") throw new Error(`oracle: ${inode} is not a folder`);
    return node;
  }

  private resize(node: Extract<OracleNode, { kind: "file" }>, length: number): void {
    const data = Buffer.alloc(length);
    node.data.copy(data, 0, 0, Math.min(length, node.data.length));
    node.data = data;
    node.shortest = Math.min(node.shortest, length);
  }

  /** Where creating `p` creates a file: through a link at its end that names nothing yet, the path it names (the kernel follows it). */
  private danglingTarget(p: string, depth = 0): string {
    const [dir, name] = this.parent(p);
    const node = this.nodes.get(this.dir(dir).entries.get(name) ?? -1);
    if (node?.kind !== "symlink" || depth > 8) return p;
    return this.danglingTarget(normalise(node.target.startsWith("@") ? node.target : `${p.slice(0, p.lastIndexOf("/"))}/${node.target}`), depth + 1);
  }

  /** The folder that holds `p` and its last name, through the entries now (following links to folders on the way). */
  private parent(p: string): [number, string] {
    const parts = p.split("/");
    const name = parts.pop()!;
    const dir = this.lookup(parts.join("/"), true);
    if (dir === undefined) throw new Error(`oracle: no folder ${parts.join("/")}`);
    return [dir, name];
  }

  /** The inode at `p` now ("@/work/a"), following a link at its end when `follow`. */
  private lookup(p: string, follow: boolean, depth = 0): number | undefined {
    if (depth > 8) return undefined;
    const parts = p.split("/");
    if (parts[0] !== "@") throw new Error(`oracle: ${p} is outside the scenario`);
    let inode = this.root;
    let at = "@";
    for (const [i, part] of parts.slice(1).entries()) {
      const node = this.nodes.get(inode)!;
      if (node.kind !== "dir") return undefined;
      const child = node.entries.get(part);
      if (child === undefined) return undefined;
      const last = i === parts.length - 2;
      const childNode = this.nodes.get(child)!;
      if (childNode.kind === "symlink" && (!last || follow)) {
        const target = childNode.target.startsWith("@") ? childNode.target : `${at}/${childNode.target}`;
        const resolved = this.lookup(normalise(target), true, depth + 1);
        if (resolved === undefined) return undefined;
        inode = resolved;
      } else inode = child;
      at = `${at}/${part}`;
    }
    return inode;
  }
}

/** "@/work/d/../a" as "@/work/a". */
function normalise(p: string): string {
  const out: string[] = [];
  for (const part of p.split("/")) {
    if (part === "..") out.pop();
    else if (part !== "." && part !== "") out.push(part);
  }
  return out.join("/");
}

function flagsOf(flags: string | number): { create: boolean; truncate: boolean; append: boolean } {
  if (typeof flags === "number") return { create: (flags & 0o100) !== 0, truncate: (flags & 0o1000) !== 0, append: (flags & 0o2000) !== 0 };
  return { create: /[wa]/.test(flags), truncate: flags.includes("w"), append: flags.includes("a") };
}
