// Where the Node that grades does less than its documentation says, so the recording fs does the
// same: the crash and power-loss models are built from what it records. Each rule was measured
// with strace, and grader/test/recording-fs-kernel.test.ts measures it again on every Node the
// project supports (20.20.2, 22.23.5 and 24.22.3 when last written).

const major = (version: string) => Number(version.split(".")[0]);

/** The first Node version whose string fast path honours `flush`: none measured so far (nodejs/node#60552 was closed unfixed). */
const FLUSH_HONOURED_FROM: { major: number; minor: number } | null = null;

/**
 * Whether writeFileSync (and appendFileSync, which calls it) skips the fsync `flush: true` asks
 * for: its fast path for a string with the encoding "utf8" or "utf-8" (given in the options, as a
 * string or in an object) writes and closes and never reads `flush` (nodejs/node#60552). Without
 * an encoding in an options object, or with a Buffer, Node takes the path that fsyncs.
 */
export function flushIgnored(data: unknown, encoding: unknown, version = process.versions.node): boolean {
  if (typeof data !== "string" || (encoding !== "utf8" && encoding !== "utf-8")) return false;
  if (!FLUSH_HONOURED_FROM) return true;
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return major < FLUSH_HONOURED_FROM.major || (major === FLUSH_HONOURED_FROM.major && minor < FLUSH_HONOURED_FROM.minor);
}

/**
 * Whether cpSync copies a file over one it has just unlinked as C++'s std::filesystem::copy_file
 * does (Node 22 and 24): the new file opened exclusively with mode 0o200, then given its mode by
 * fchmod. Node 20's cpSync copies with libuv's copyfile, as copyFileSync does.
 */
export function cpSyncReplacesExclusively(version = process.versions.node): boolean {
  return major(version) >= 22;
}

/**
 * Whether rmSync with both `recursive` and `force` returns quietly when a folder on the way is a
 * file (ENOTDIR), as it does when the path is missing (Node 24: its C++ rmSync asks
 * std::filesystem, which counts both as "not found"). Node 20 and 22 throw ENOTDIR.
 */
export function rmForceForgivesNotDir(version = process.versions.node): boolean {
  return major(version) >= 24;
}

/**
 * Whether cpSync copies a folder, unfiltered, in C++ (Node 22 and 24): each file in it copied by
 * std::filesystem::copy_file over its name (opened O_TRUNC with mode 0o200, then given its mode
 * by fchmod; one already there is emptied, not unlinked). A `filter` keeps Node's JavaScript copy.
 */
export function cpSyncCopiesFolderNatively({ filtered }: { filtered: boolean }, version = process.versions.node): boolean {
  return !filtered && major(version) >= 22;
}

/**
 * Whether cpSync gives a folder it makes its source's mode once it is filled. Node 22's C++ folder
 * copy never does: the folder keeps mkdir's 0o777 less the umask. Node 20, and 24, do.
 */
export function cpSyncGivesFolderMode({ filtered }: { filtered: boolean }, version = process.versions.node): boolean {
  return !(cpSyncCopiesFolderNatively({ filtered }, version) && major(version) === 22);
}
