// What one inode of the power-loss model holds (a file's data as of now and as of its last fsync,
// a folder's entries likewise) and what an fsync, a failed fsync or a resize does to it. The disk
// of inodes and paths that uses them: power-model.ts.
/** `lost` marks the bytes of `data` a failed fsync lost (1: lost), when one did; `shortest` is the shortest the file was since its last fsync; `fsynced`, whether one made it durable. */
export type FileNode = { kind: "file"; data: Buffer; synced: Buffer; shortest: number; fsynced: boolean; lost?: Uint8Array };
/** `entries` now, `durable` as of its last fsync, `lost` the entries a failed fsync of it lost (what the disk keeps for each: an inode, or nothing). */
export type DirNode = { kind: "dir"; entries: Map<string, number>; durable: Map<string, number>; lost: Map<string, number | undefined> };
export type PowerNode = FileNode | DirNode | { kind: "symlink"; target: string };

/** An empty folder, nothing durable yet. */
export function newDir(): DirNode {
  return { kind: "dir", entries: new Map(), durable: new Map(), lost: new Map() };
}

/** A folder's entries as they reach the disk: as they are now, except those a failed fsync lost (the disk keeps the old ones). */
export function reachingDisk(dir: DirNode): Map<string, number> {
  if (dir.lost.size === 0) return dir.entries;
  const out = new Map(dir.entries);
  for (const [name, inode] of dir.lost) inode === undefined ? out.delete(name) : out.set(name, inode);
  return out;
}

/** fsync of a folder: its entries, as they are now, become durable. */
export function syncFolder(dir: DirNode): void {
  dir.lost.clear();
  dir.durable = new Map(dir.entries);
}

/** A failed fsync of a folder: its entries not yet durable never reach the disk as they are. */
export function loseFolderChanges(dir: DirNode): void {
  for (const name of new Set([...dir.entries.keys(), ...dir.durable.keys()])) {
    if (dir.entries.get(name) !== dir.durable.get(name)) dir.lost.set(name, dir.durable.get(name));
  }
}

/** fsync of a file: its bytes as they reach the disk now are durable. */
export function syncFile(node: FileNode): void {
  node.synced = onDisk(node);
  node.shortest = node.data.length;
  node.fsynced = true;
}

/** The file's bytes as writing them out can make them: those a failed fsync lost are what the disk held there (zeros past its end). */
export function onDisk(node: FileNode): Buffer {
  if (!node.lost) return Buffer.from(node.data);
  const out = Buffer.from(node.data);
  for (let i = 0; i < out.length; i++) if (node.lost[i]) out[i] = i < node.synced.length ? node.synced[i]! : 0;
  return out;
}

/** A failed fsync: every byte not yet durable is lost. */
export function loseUnsynced(node: FileNode): void {
  const lost = resizeMask(node.lost ?? new Uint8Array(0), node.data.length);
  for (let i = 0; i < node.data.length; i++) if (i >= node.synced.length || node.data[i] !== node.synced[i]) lost[i] = 1;
  node.lost = lost;
}

/** `mask` cut or grown (with zeros: not lost) to `length` bytes. */
export function resizeMask(mask: Uint8Array, length: number): Uint8Array {
  if (mask.length === length) return mask;
  const out = new Uint8Array(length);
  out.set(mask.subarray(0, length));
  return out;
}

/** A file cut or grown (with zeros) to `length` bytes, its lost-byte marks with it. */
export function resize(node: FileNode, length: number): void {
  const data = Buffer.alloc(length);
  node.data.copy(data, 0, 0, Math.min(length, node.data.length));
  node.data = data;
  node.shortest = Math.min(node.shortest, length);
  if (node.lost) node.lost = resizeMask(node.lost, length);
}
