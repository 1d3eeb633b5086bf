// The errors the recording fs throws where it cannot let Node's own fs throw them (a call it makes
// of several steps, an argument it reads itself), worded and shaped as Node's: a failed system call
// as "ENOENT: no such file or directory, copyfile 'a' -> 'b'" with errno, code, syscall, path and
// dest; a bad argument as a TypeError whose code Node also shows in its stack and in String(error).
import { constants } from "node:os";
import { getSystemErrorMap, inspect } from "node:util";

/** True for an error a system call gave (it has Node's errno and code), as opposed to a bug or a refusal. */
export function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  const e = error as NodeJS.ErrnoException | null;
  return typeof e?.errno === "number" && typeof e.code === "string";
}

/**
 * The error Node throws when `syscall` on `file` (to `dest`) failed with `cause`: the error of the
 * step that failed, or the code the call fails with ("EEXIST"). Node names the call the target
 * made and its arguments, not the step.
 */
export function systemError(cause: NodeJS.ErrnoException | string, syscall: string, file: string, dest?: string): NodeJS.ErrnoException {
  const errno = typeof cause === "string" ? -constants.errno[cause as keyof typeof constants.errno] : cause.errno!;
  const [code, words] = getSystemErrorMap().get(errno) ?? [typeof cause === "string" ? cause : cause.code!, "unknown error"];
  const error: NodeJS.ErrnoException = new Error(`${code}: ${words}, ${syscall} '${file}'${dest === undefined ? "" : ` -> '${dest}'`}`);
  return Object.assign(error, { errno, code, syscall, path: file, ...(dest === undefined ? {} : { dest }) });
}

/** Node's ERR_INVALID_ARG_VALUE: "The argument 'encoding' is invalid for data of length 1. Received 'hex'". */
export function invalidArgValue(name: string, value: unknown, reason: string): TypeError {
  const kind = name.includes(".") ? "property" : "argument";
  const shown = inspect(value);
  const received = shown.length > 128 ? `${shown.slice(0, 128)}...` : shown;
  return withCode(new TypeError(`The ${kind} '${name}' ${reason}. Received ${received}`), "ERR_INVALID_ARG_VALUE");
}

/** Node's ERR_INVALID_ARG_TYPE for data to write: 'The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received type number (5)'. */
export function invalidDataType(name: string, value: unknown): TypeError {
  return withCode(new TypeError(`The "${name}" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${received(value)}`), "ERR_INVALID_ARG_TYPE");
}

/** What Node's argument errors say they received: "type number (5)", "an instance of Object", "null". */
function received(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === "function") return `function ${value.name}`;
  if (typeof value === "object") {
    const name = (value as object).constructor?.name;
    return name ? `an instance of ${name}` : inspect(value, { depth: -1 });
  }
  let shown = inspect(value, { colors: false });
  if (shown.length > 28) shown = `${shown.slice(0, 25)}...`;
  return `type ${typeof value} (${shown})`;
}

/** Gives `error` Node's `code`, shown as Node shows it: "TypeError [ERR_X]: ..." in its stack and in String(error). */
function withCode<E extends Error>(error: E, code: string): E & { code: string } {
  error.stack = error.stack?.replace(/^\w+/, (name) => `${name} [${code}]`);
  Object.defineProperty(error, "toString", {
    value(this: Error) {
      return `${this.name} [${code}]: ${this.message}`;
    },
    writable: true,
    configurable: true,
  });
  return Object.assign(error, { code });
}
