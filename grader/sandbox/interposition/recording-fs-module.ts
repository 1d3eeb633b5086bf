// The module object a target gets as `fs`: each of Node's exports passed through (it only reads),
// replaced by its recorded version, or refused, as fs-surface.ts's table says, with `fs.promises`
// made the same way on first use.
import realFs from "node:fs";
import { promisify } from "node:util";
import { asyncVersions, promiseVersions, type AsyncContext, type SyncFs } from "./recording-fs-async.js";
import { refused, refusal, treatmentOf } from "./fs-surface.js";
import type { Recorder } from "./recorder.js";
import { toPath, type PathLike } from "./fs-arguments.js";

type AnyFn = (...args: any[]) => any;

/** The names of calls that only read and that a scheduler may make wait their turn (see Recorder.beforeRead). */
const GATED_READS = ["readFileSync", "readdirSync", "opendirSync", "existsSync", "statSync", "lstatSync", "accessSync", "readlinkSync", "realpathSync"];

/** Reads that look at more than the paths they name (a pattern, a whole file system, changes to come): a run that makes one shares no recovery. */
const BEYOND_PATHS = ["glob", "globSync", "watch", "watchFile", "unwatchFile", "statfs", "statfsSync"];
/** Reads that list a folder's names. */
const LISTINGS = ["readdir", "readdirSync", "opendir", "opendirSync"];
/** Reads that look only at whether something is at a path, and (access) its mode. */
const ENTRY_READS = ["exists", "existsSync", "access", "accessSync"];
/** Exports among the reads that are classes or helpers, not calls on the disk. */
const NOT_CALLS = ["Dirent", "Stats", "Dir", "_toUnixTimestamp"];

/**
 * The module object: each of Node's exports passed through, recorded or refused as fs-surface.ts
 * says. `promises` is made on first use, as Node's own is: loading Node's promise API costs every
 * process that starts a target several milliseconds, and most targets never use it.
 */
export function assemble(current: () => Recorder | null, sync: SyncFs, context: AsyncContext): typeof realFs {
  const recorded: Record<string, unknown> = { ...sync, ...asyncVersions(sync, context) };
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(realFs)) {
    if (name === "promises") continue;
    const real = (realFs as unknown as Record<string, unknown>)[name];
    if (typeof real !== "function") out[name] = real;
    else out[name] = surfaced(name, treatmentOf(name) === "reads" ? readingVersion(current, name, real as AnyFn) : recorded[name]);
  }
  let promises: unknown;
  Object.defineProperty(out, "promises", { enumerable: true, configurable: true, get: () => (promises ??= promisesModule(current, sync, context)) });
  return out as unknown as typeof realFs;
}

/** `fs.promises`, each export passed through, recorded or refused. */
function promisesModule(current: () => Recorder | null, sync: SyncFs, context: AsyncContext): Record<string, unknown> {
  const recorded = promiseVersions(sync, context);
  const out: Record<string, unknown> = {};
  for (const [name, real] of Object.entries(realFs.promises)) {
    if (typeof real !== "function") out[name] = real;
    else out[name] = surfaced(`fs.promises.${name}`, treatmentOf(name, { promises: true }) === "reads" ? looking(current, name, guardReadFlags(name, real as AnyFn)) : recorded[name]);
  }
  return out;
}

/** `read` told to the recorder as what the run looked at (see Recorder.lookedAt) before it runs. */
function looking(current: () => Recorder | null, name: string, read: AnyFn): AnyFn {
  if (NOT_CALLS.includes(name)) return read;
  const out = function (this: unknown, p: unknown, ...rest: unknown[]) {
    const rec = current();
    if (rec) lookAt(rec, name, p, rest[0]);
    return read.call(this, p, ...rest);
  };
  // What util.promisify reads off Node's own (fs.exists' custom version, fs.read's named results).
  for (const key of Reflect.ownKeys(read)) {
    if (typeof key !== "symbol") continue;
    const value = (read as unknown as Record<symbol, unknown>)[key];
    // A promisified function is its own custom version: the wrapper is then its own too.
    const custom = key === promisify.custom && typeof value === "function";
    Object.defineProperty(out, key, { value: custom ? (value === read ? out : looking(current, name, value as AnyFn)) : value });
  }
  return out;
}

/** Tells `rec` what a read of `p` (with `options`) looks at. */
function lookAt(rec: Recorder, name: string, p: unknown, options: unknown): void {
  if (BEYOND_PATHS.includes(name)) return rec.lookedBeyond(`it called ${name}`);
  if (typeof p === "number") return rec.lookedAtFd(p);
  // A FileHandle (fs.promises.readFile(handle)): its open named its path.
  if (p && typeof p === "object" && typeof (p as { fd?: unknown }).fd === "number") return rec.lookedAtFd((p as { fd: number }).fd);
  let stored: string;
  try {
    stored = rec.store(toPath(p as PathLike));
  } catch {
    return rec.lookedBeyond(`${name} was given ${typeof p}`);
  }
  // A recursive listing looks at everything below the folder.
  const recursive = !!options && typeof options === "object" && !!(options as { recursive?: unknown }).recursive;
  rec.lookedAt(stored, LISTINGS.includes(name) && !recursive ? "listing" : ENTRY_READS.includes(name) ? "entry" : "whole");
}

/** The function the target gets for one export: `mine` when the table passes or records it, a refusal otherwise. */
function surfaced(name: string, mine: unknown): unknown {
  if (typeof mine === "function") return mine;
  const shortName = name.replace(/^fs\.promises\./, "");
  const listed = treatmentOf(shortName, { promises: name !== shortName });
  // A name the table records must have a recorded version: anything else is the grader's bug.
  if (listed === "recorded") throw new Error(`recording fs: ${name} is listed as recorded but has no recorded version`);
  return refused(name.startsWith("fs.") ? name : `fs.${name}`);
}

/** A call that only reads, told to the recorder's `beforeRead` first when it is one a scheduler gates; its flags checked. */
function readingVersion(current: () => Recorder | null, name: string, real: AnyFn): AnyFn {
  const checked = looking(current, name, guardReadFlags(name, real));
  if (name === "realpath") (checked as AnyFn & { native?: unknown }).native = looking(current, name, realFs.realpath.native);
  if (!GATED_READS.includes(name)) {
    return checked;
  }
  const out = (p: unknown, ...rest: unknown[]) => {
    const rec = current();
    if (rec?.beforeRead && rec.depth === 0 && typeof p !== "number") rec.beforeRead(name, rec.store(toPath(p as PathLike)));
    return checked(p, ...rest);
  };
  if (name === "realpathSync") (out as AnyFn & { native?: unknown }).native = looking(current, name, realFs.realpathSync.native);
  return out;
}

/** readFile with a `flag` that creates or truncates (`{ flag: "w+" }`) changes the disk: refused, not passed through. */
function guardReadFlags(name: string, real: AnyFn): AnyFn {
  if (name !== "readFile" && name !== "readFileSync") return real;
  return (p: unknown, options?: unknown, ...rest: unknown[]) => {
    const flag = options && typeof options === "object" ? (options as { flag?: string | number }).flag : undefined;
    if (flag !== undefined && !/^(r|rs|sr)$/.test(String(flag))) throw refusal(`${name} with the flag ${JSON.stringify(flag)}`);
    return options === undefined ? real(p, ...rest) : real(p, options, ...rest);
  };
}
