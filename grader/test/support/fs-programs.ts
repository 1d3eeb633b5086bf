// Random programs of file-system calls for the model tests: written once as data (fast-check
// makes and shrinks them), run on any `fs` (Node's own, or the recording one) in a work folder.
// A call the disk refuses (a rename of a missing file, "wx" on an existing one) throws, and is
// passed over, as a target that catches its errors would.
import type nodeFs from "node:fs";
import path from "node:path";
import fc from "fast-check";

/** The names a program works on (relative to its work folder): files, and folders that hold some of them. */
export const FILES = ["a", "b", "a.tmp", "d/a", "e/a"] as const;
export const FOLDERS = ["d", "e"] as const;

const { O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND } = { O_WRONLY: 0o1, O_RDWR: 0o2, O_CREAT: 0o100, O_TRUNC: 0o1000, O_APPEND: 0o2000 };

/** Open flags, as strings and as numbers (Linux's values). */
export const OPEN_FLAGS = ["w", "wx", "a", "r+", "w+", "a+", "r", O_WRONLY | O_CREAT | O_TRUNC, O_RDWR | O_CREAT, O_WRONLY | O_CREAT | O_APPEND] as const;
export type OpenFlag = (typeof OPEN_FLAGS)[number];

/** One call of a program; descriptors are named by slot (0 or 1): a call on a slot not open (an open on a slot taken) goes to the other one, when it can. */
export type Step =
  | { kind: "open"; slot: number; file: string; flags: OpenFlag }
  | { kind: "write"; slot: number; data: string; position: number | null }
  | { kind: "ftruncate"; slot: number; length: number }
  | { kind: "fsync"; slot: number }
  | { kind: "close"; slot: number }
  /** writeFileSync: open, write, close (a temp file written whole). */
  | { kind: "writeFile"; file: string; data: string; flag: "w" | "wx" | "a" }
  /** An fsync of a folder: open it read-only, fsync, close. */
  | { kind: "fsyncFolder"; folder: string }
  | { kind: "rename"; from: string; to: string }
  | { kind: "unlink"; file: string }
  | { kind: "mkdir"; folder: string }
  | { kind: "rmdir"; folder: string }
  | { kind: "truncate"; file: string; length: number }
  | { kind: "link"; from: string; to: string }
  /** A symbolic link to `target`, given as an absolute path when `absolute`. */
  | { kind: "symlink"; target: string; file: string; absolute: boolean }
  /** A mode change, of a file or a folder; the owner keeps every right it needs (a grader running as root would not notice a loss). */
  | { kind: "chmod"; name: string; mode: number };

/** What a program may hold. */
export interface ProgramOptions {
  /** Writes at a position through a descriptor opened to append (Linux appends them all the same). */
  positionalAppends?: boolean;
  /** Symbolic links whose target is an absolute path. */
  absoluteSymlinks?: boolean;
  /** Renames of folders (and of anything onto a folder). */
  folderRenames?: boolean;
  /** Hard links. */
  hardLinks?: boolean;
  /** Renames of a name onto another name of the same file (which POSIX says do nothing). */
  sameFileRenames?: boolean;
  /** Symbolic links. */
  symlinks?: boolean;
  /** Mode changes (chmod) of files and folders. */
  modes?: boolean;
}

const text = fc.string({ unit: fc.constantFrom("a", "b", "c", "x", "y", "z", "\n"), minLength: 1, maxLength: 6 });
const slot = fc.integer({ min: 0, max: 1 });
// Names in the work folder itself more often than in its folders, which a program must make first.
const file = fc.oneof({ weight: 3, arbitrary: fc.constantFrom("a", "b", "a.tmp") }, { weight: 1, arbitrary: fc.constantFrom("d/a", "e/a") });
const folder = fc.constantFrom(...FOLDERS);

/** A random program of at most `maxLength` calls, with the `options` it may hold. */
export function programs(options: ProgramOptions = {}, maxLength = 24): fc.Arbitrary<Step[]> {
  const { folderRenames = true, hardLinks = true, symlinks = true, absoluteSymlinks = true } = options;
  const name = folderRenames ? fc.constantFrom<string>(...FILES, ...FOLDERS) : file;
  // Files are made, written and fsynced more often than anything else, so most programs leave something to see and to lose.
  const steps: { arbitrary: fc.Arbitrary<Step>; weight: number }[] = [
    { weight: 5, arbitrary: fc.record({ kind: fc.constant("open" as const), slot, file, flags: fc.constantFrom(...OPEN_FLAGS) }) },
    { weight: 6, arbitrary: fc.record({ kind: fc.constant("write" as const), slot, data: text, position: fc.option(fc.integer({ min: 0, max: 9 }), { nil: null, freq: 2 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("ftruncate" as const), slot, length: fc.integer({ min: 0, max: 9 }) }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant("fsync" as const), slot }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("close" as const), slot }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant("writeFile" as const), file, data: text, flag: fc.constantFrom("w" as const, "wx" as const, "a" as const) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("fsyncFolder" as const), folder: fc.constantFrom("", ...FOLDERS) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("rename" as const), from: name, to: name }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("unlink" as const), file }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("mkdir" as const), folder }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("rmdir" as const), folder }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("truncate" as const), file, length: fc.integer({ min: 0, max: 9 }) }) },
  ];
  if (hardLinks) steps.push({ weight: 1, arbitrary: fc.record({ kind: fc.constant("link" as const), from: file, to: file }) });
  if (options.modes) steps.push({ weight: 1, arbitrary: fc.record({ kind: fc.constant("chmod" as const), name: fc.constantFrom<string>(...FILES, ...FOLDERS), mode: fc.constantFrom(0o700, 0o750, 0o755) }) });
  if (symlinks) steps.push({ weight: 1, arbitrary: fc.record({ kind: fc.constant("symlink" as const), target: file, file, absolute: absoluteSymlinks ? fc.boolean() : fc.constant(false) }) });
  return fc.array(fc.oneof(...steps), { minLength: 1, maxLength, size: "max" });
}

/** Runs `program` with `fs` in the folder `work`; returns how many of its calls succeeded. Descriptors left open are closed. */
export function runProgram(fs: typeof nodeFs, work: string, program: Step[], options: ProgramOptions = {}): number {
  const { positionalAppends = true, folderRenames = true, sameFileRenames = true } = options;
  const open = new Map<number, { fd: number; append: boolean }>();
  const slotOf = (slot: number) => (open.has(slot) ? slot : open.has(1 - slot) ? 1 - slot : undefined);
  const at = (rel: string) => (rel === "" ? work : path.join(work, rel));
  let done = 0;
  for (const step of program) {
    try {
      switch (step.kind) {
        case "open": {
          const slot = !open.has(step.slot) ? step.slot : !open.has(1 - step.slot) ? 1 - step.slot : undefined;
          if (slot === undefined) continue;
          const fd = fs.openSync(at(step.file), step.flags);
          open.set(slot, { fd, append: typeof step.flags === "number" ? (step.flags & O_APPEND) !== 0 : step.flags.includes("a") });
          break;
        }
        case "write": {
          const file = open.get(slotOf(step.slot) ?? -1);
          if (!file || (file.append && step.position !== null && !positionalAppends)) continue;
          const bytes = Buffer.from(step.data);
          fs.writeSync(file.fd, bytes, 0, bytes.byteLength, step.position);
          break;
        }
        case "ftruncate":
        case "fsync":
        case "close": {
          const slot = slotOf(step.slot);
          if (slot === undefined) continue;
          const { fd } = open.get(slot)!;
          if (step.kind === "ftruncate") fs.ftruncateSync(fd, step.length);
          else if (step.kind === "fsync") fs.fsyncSync(fd);
          else fs.closeSync(fd), open.delete(slot);
          break;
        }
        case "writeFile":
          fs.writeFileSync(at(step.file), step.data, { flag: step.flag });
          break;
        case "fsyncFolder": {
          const fd = fs.openSync(at(step.folder), "r");
          try {
            fs.fsyncSync(fd);
          } finally {
            fs.closeSync(fd);
          }
          break;
        }
        case "rename":
          if (!folderRenames && (isFolder(fs, at(step.from)) || isFolder(fs, at(step.to)))) continue;
          if (!sameFileRenames && sameFile(fs, at(step.from), at(step.to))) continue;
          fs.renameSync(at(step.from), at(step.to));
          break;
        case "unlink":
          fs.unlinkSync(at(step.file));
          break;
        case "mkdir":
          fs.mkdirSync(at(step.folder));
          break;
        case "rmdir":
          fs.rmdirSync(at(step.folder));
          break;
        case "truncate":
          fs.truncateSync(at(step.file), step.length);
          break;
        case "chmod":
          fs.chmodSync(at(step.name), step.mode);
          break;
        case "link":
          fs.linkSync(at(step.from), at(step.to));
          break;
        case "symlink":
          fs.symlinkSync(step.absolute ? at(step.target) : path.relative(path.dirname(at(step.file)), at(step.target)), at(step.file));
          break;
      }
      done++;
    } catch {
      // Refused by the disk: a program that catches its errors goes on.
    }
  }
  for (const { fd } of open.values()) fs.closeSync(fd);
  return done;
}

function sameFile(fs: typeof nodeFs, a: string, b: string): boolean {
  try {
    const [x, y] = [fs.lstatSync(a), fs.lstatSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

function isFolder(fs: typeof nodeFs, p: string): boolean {
  try {
    return fs.lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}
