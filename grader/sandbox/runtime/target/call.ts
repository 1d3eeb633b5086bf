// One call into a target function, turned into a plain description of what it did.
import path from "node:path";
import { canonicalJson, stateDigest, textDigest } from "../../../../lab/canonical.js";
import { TargetExit } from "./instance.js";
import { CallTimedOut, withTimeLimit } from "./time-limit.js";
import { scrubPaths } from "../../messages/paths.js";
import { jsonPreview } from "./preview.js";
import { visibleJson } from "../../../visible-json.js";
import { labArg } from "./lab-module.js";
import { MAX_VALUE_BYTES, type CallResult, type ErrorSummary, type ValueSummary } from "../../messages/scenario.js";

/**
 * Replaces the grader's placeholders in call arguments (and one level inside option objects):
 * `{ $path: "work/x" }` becomes a path in the scenario folder `root`, `{ $task: {...} }` a lab task.
 */
export function resolveArgs(args: unknown[], root: string, depth = 0): unknown[] {
  return args.map((a) => {
    if (!a || typeof a !== "object") return a;
    if ("$path" in a) return path.join(root, String((a as { $path: string }).$path));
    if ("$task" in a) return labArg(a as { $task: { prompt?: string } });
    if (depth > 0 || Array.isArray(a) || Object.getPrototypeOf(a) !== Object.prototype) return a;
    const keys = Object.keys(a);
    const values = resolveArgs(Object.values(a), root, depth + 1);
    return Object.fromEntries(keys.map((k, i) => [k, values[i]]));
  });
}

/**
 * Calls `exports[name](...args)`, stopped once it has used `limitMs` of processor time, and reports how it ended: returned,
 * threw, exited, timed out, or missing. `frames` turns an error into the student's own stack frames.
 */
export function runCall(exports: Record<string, unknown> | Error, name: string, args: unknown[], opts: CallOptions): CallResult {
  const { root, limitMs, frames = () => [], wantValue = false } = opts;
  const scrub = (e: ErrorSummary, error: unknown) => ({ ...e, frames: frames(error) });
  if (exports instanceof TargetExit) return { status: "exited", detail: `${exports.message} while the module was loading` };
  if (exports instanceof CallTimedOut) return { status: "timed-out", detail: `the module's top level ${exports.message}`, importing: true };
  if (exports instanceof Error) return { status: "import-failed", error: scrub(summarizeError(exports, root), exports) };
  const fn = exports[name];
  if (typeof fn !== "function") {
    return { status: "missing", detail: `does not export a function named ${name}` + (fn === undefined ? "" : ` (found ${typeof fn})`) };
  }
  try {
    // The value is summarised inside the limit too: a getter or toJSON of the target's runs there.
    return { status: "returned", value: withTimeLimit(() => summarizeValue(fn(...args), { keep: wantValue }), limitMs) };
  } catch (error) {
    if (error instanceof TargetExit) return { status: "exited", detail: error.message };
    if (error instanceof CallTimedOut) return { status: "timed-out", detail: error.message };
    return { status: "threw", error: scrub(summarizeError(error, root), error) };
  }
}

/** Where and how a call runs: over the scenario folder `root`, under a limit of `limitMs` of processor time; `frames` finds the student's frames of an error; with `wantValue`, a JSON copy of the value comes back too. */
export interface CallOptions {
  root: string;
  limitMs: number;
  frames?: (e: unknown) => string[];
  wantValue?: boolean;
}

/** A digest and a short preview of a returned value; a digest only for JSON values; with `keep`, a JSON copy of it. */
export function summarizeValue(value: unknown, { keep = false }: { keep?: boolean } = {}): ValueSummary {
  if (value === undefined) return { digest: null, preview: "undefined", isNull: false };
  if (typeof value === "function" || typeof value === "symbol" || typeof value === "bigint") {
    return { digest: null, preview: `a ${typeof value}`, isNull: false };
  }
  if (typeof (value as { then?: unknown })?.then === "function") {
    return { digest: null, preview: "a Promise (the function must return the value itself, synchronously)", isNull: false };
  }
  try {
    const text = canonicalJson(value);
    const summary: ValueSummary = { digest: textDigest(text), preview: "", isNull: value === null };
    if (keep && text.length <= MAX_VALUE_BYTES) summary.value = JSON.parse(text);
    if (value && typeof value === "object" && "status" in value) {
      const v = value as { status: unknown; nextStep: unknown; state: unknown };
      summary.run = { status: v.status, nextStep: v.nextStep, stateDigest: v.state === undefined ? null : stateDigest(v.state) };
      summary.preview = visibleJson(clip(JSON.stringify({ status: v.status, nextStep: v.nextStep }), 160));
    } else {
      // The digest is of the canonical form (keys sorted); the preview shows the keys in the target's own order.
      // Characters one cannot see are escaped once it is cut, so that no escape is cut in two.
      summary.preview = visibleJson(ownOrderPreview(value) ?? clip(text, 160));
    }
    return summary;
  } catch (error) {
    return { digest: null, preview: `a value that is not JSON (${(error as Error).message})`, isNull: false };
  }
}

/** The start of the value's JSON in its own key order; undefined where JSON.stringify cannot say it. */
function ownOrderPreview(value: unknown): string | undefined {
  try {
    return jsonPreview(value, 160);
  } catch {
    return undefined;
  }
}

/** The name, first line of the message and code of a thrown value; with `root`, its scenario's paths hidden before it is cut short. */
export function summarizeError(error: unknown, root?: string): ErrorSummary {
  const e = error instanceof Error ? error : new Error(typeof error === "string" ? error : `a thrown ${typeof error}`);
  // A failed command (execFileSync) names only itself in its first line: what it printed says why.
  const said = commandComplaint((e as { stderr?: unknown }).stderr);
  const full = (String(e.message).split("\n")[0] ?? "") + (said ? ` (it printed: ${said})` : "");
  const message = clip(root === undefined ? full : scrubPaths(full, root), 300);
  return {
    name: e.name,
    message,
    code: typeof (e as NodeJS.ErrnoException).code === "string" ? (e as NodeJS.ErrnoException).code : undefined,
    notImplemented: /not implemented/i.test(message),
  };
}

/** The first line of a failed command's error output that says what went wrong ("fatal: ..."), if any. */
function commandComplaint(stderr: unknown): string | undefined {
  if (typeof stderr !== "string" && !Buffer.isBuffer(stderr)) return undefined;
  const lines = String(stderr).split("\n").map((l) => l.trim()).filter((l) => l !== "");
  return lines.find((l) => /^(fatal|error):/i.test(l)) ?? lines[0];
}

/** The start of `text`, as a string of its own (a slice would keep all of `text` alive). */
export function clip(text: string, max: number): string {
  const start = text.length <= max ? text : text.slice(0, max - 1) + "…";
  return Buffer.from(start, "utf16le").toString("utf16le");
}
