// The module object a target gets as `fs`: each of Node's exports passed through (it only reads),
// replaced by its recorded version, or refused, as fs-surface.ts's table says, with `fs.promises`
// made the same way on first use.
import realFs from "node:fs";
import { asyncVersions, promiseVersions, type PendingOps, type SyncFs } from "./recording-fs-async.js";
import { refused, refusal, treatmentOf } from "./fs-surface.js";
import type { Recorder } from "./recorder.js";
import { toPath, type PathLike } from "./fs-arguments.js";

type AnyFn = (...args: any[]) => any;

/** The names of calls that only read and that a scheduler may make wait their turn (see Recorder.beforeRead). */
const GATED_READS = ["readFileSync", "readdirSync", "opendirSync", "existsSync", "statSync", "lstatSync", "accessSync", "readlinkSync", "realpathSync"];

/**
 * The module object: each of Node's exports passed through, recorded or refused as fs-surface.ts
 * says. `promises` is made on first use, as Node's own is: loading Node's promise API costs every
 * process that starts a target several milliseconds, and most targets never use it.
 */
export function assemble(current: () => Recorder | null, sync: SyncFs, pending: PendingOps): typeof realFs {
  const recorded: Record<string, unknown> = { ...sync, ...asyncVersions(sync, pending) };
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(realFs)) {
    if (name === "promises") continue;
    const real = (realFs as unknown as Record<string, unknown>)[name];
    if (typeof real !== "function") out[name] = real;
    else out[name] = surfaced(name, treatmentOf(name) === "reads" ? readingVersion(current, name, real as AnyFn) : recorded[name]);
  }
  let promises: unknown;
  Object.defineProperty(out, "promises", { enumerable: true, configurable: true, get: () => (promises ??= promisesModule(sync, pending)) });
  return out as unknown as typeof realFs;
}

/** `fs.promises`, each export passed through, recorded or refused. */
function promisesModule(sync: SyncFs, pending: PendingOps): Record<string, unknown> {
  const recorded = promiseVersions(sync, pending);
  const out: Record<string, unknown> = {};
  for (const [name, real] of Object.entries(realFs.promises)) {
    if (typeof real !== "function") out[name] = real;
    else out[name] = surfaced(`fs.promises.${name}`, treatmentOf(name, { promises: true }) === "reads" ? guardReadFlags(name, real as AnyFn) : recorded[name]);
  }
  return out;
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
  const checked = guardReadFlags(name, real);
  if (!GATED_READS.includes(name)) return checked;
  const out = (p: unknown, ...rest: unknown[]) => {
    const rec = current();
    if (rec?.beforeRead && rec.depth === 0 && typeof p !== "number") rec.beforeRead(name, rec.store(toPath(p as PathLike)));
    return checked(p, ...rest);
  };
  if (name === "realpathSync") (out as AnyFn & { native?: unknown }).native = realFs.realpathSync.native;
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
