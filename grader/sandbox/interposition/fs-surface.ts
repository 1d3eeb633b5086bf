// Every function Node's `fs` and `fs.promises` export, and what the recording fs a target receives
// does with it: passes it through (it only reads), records it (it changes the disk, and is built
// from the recorded primitives), or refuses it with an error that names it. A name this table does
// not list is refused too, so a later Node cannot add a way to change the disk that the grader
// does not see; the grader's own test enumerates Node's exports and fails on any name not listed.

/** What the recording fs does with one exported function. */
export type Treatment = "reads" | "recorded" | "refused";

const READS = [
  "access", "accessSync", "exists", "existsSync", "fstat", "fstatSync", "lstat", "lstatSync", "stat", "statSync",
  "statfs", "statfsSync", "readdir", "readdirSync", "read", "readSync", "readv", "readvSync", "readFile", "readFileSync",
  "readlink", "readlinkSync", "realpath", "realpathSync", "opendir", "opendirSync", "openAsBlob", "watch", "watchFile",
  "unwatchFile", "glob", "globSync", "Dirent", "Stats", "Dir", "_toUnixTimestamp",
];

const RECORDED = [
  "open", "openSync", "close", "closeSync", "write", "writeSync", "writev", "writevSync", "fsync", "fsyncSync",
  "fdatasync", "fdatasyncSync", "ftruncate", "ftruncateSync", "truncate", "truncateSync", "rename", "renameSync",
  "unlink", "unlinkSync", "rmdir", "rmdirSync", "rm", "rmSync", "mkdir", "mkdirSync", "mkdtemp", "mkdtempSync",
  "symlink", "symlinkSync", "link", "linkSync", "writeFile", "writeFileSync", "appendFile", "appendFileSync",
  "copyFile", "copyFileSync", "cp", "cpSync", "chmod", "chmodSync", "fchmod", "fchmodSync", "lchmod", "lchmodSync",
  "chown", "chownSync", "fchown", "fchownSync", "lchown", "lchownSync", "utimes", "utimesSync", "futimes",
  "futimesSync", "lutimes", "lutimesSync", "createWriteStream", "createReadStream", "WriteStream", "ReadStream",
  "FileWriteStream", "FileReadStream",
];

/** Functions that change the disk in a way the recorded primitives cannot stand for. */
const REFUSED = [
  // Removes its folder from inside Node when disposed, where the grader cannot see it.
  "mkdtempDisposableSync",
  // Writes from a worker of its own.
  "Utf8Stream",
];

const PROMISE_READS = ["access", "opendir", "readdir", "readlink", "lstat", "stat", "statfs", "realpath", "readFile", "watch", "glob"];
const PROMISE_RECORDED = [
  "open", "copyFile", "cp", "rename", "truncate", "rm", "rmdir", "mkdir", "symlink", "link", "unlink", "chmod", "lchmod",
  "lchown", "chown", "utimes", "lutimes", "mkdtemp", "writeFile", "appendFile",
];
const PROMISE_REFUSED = ["mkdtempDisposable"];

function table(reads: string[], recorded: string[], refused: string[]): Readonly<Record<string, Treatment>> {
  return Object.freeze(Object.fromEntries([
    ...reads.map((n) => [n, "reads"] as const),
    ...recorded.map((n) => [n, "recorded"] as const),
    ...refused.map((n) => [n, "refused"] as const),
  ]));
}

/** What the recording fs does with each function `fs` exports. */
export const FS_SURFACE = table(READS, RECORDED, REFUSED);

/** What the recording fs does with each function `fs.promises` exports. */
export const FS_PROMISES_SURFACE = table(PROMISE_READS, PROMISE_RECORDED, PROMISE_REFUSED);

/** How the recording fs treats `name` of `fs` (or of `fs.promises`): "refused" when it is not listed. */
export function treatmentOf(name: string, { promises = false }: { promises?: boolean } = {}): Treatment {
  return (promises ? FS_PROMISES_SURFACE : FS_SURFACE)[name] ?? "refused";
}

/** The error a refused call throws: it names the call and the calls the lab supports. */
export function refusal(name: string): Error {
  const error = new Error(
    `${name} is not supported by the lab's grader: it cannot record what that call changes on disk, so it cannot crash it. ` +
      "Use the calls it supports: openSync, writeSync, writevSync, fsyncSync, fdatasyncSync, ftruncateSync, closeSync, " +
      "writeFileSync, appendFileSync, copyFileSync, cpSync, renameSync, linkSync, symlinkSync, unlinkSync, rmSync, rmdirSync, " +
      "mkdirSync, mkdtempSync, truncateSync, the chmod, chown and utimes calls, createWriteStream, " +
      "their callback and fs.promises versions (a FileHandle from fs.promises.open included), and any call that only reads.",
  );
  return Object.assign(error, { code: "ERR_LAB_UNSUPPORTED" });
}

/** A function that throws the refusal of `name` when called. */
export function refused(name: string): (...args: unknown[]) => never {
  return () => {
    throw refusal(name);
  };
}
