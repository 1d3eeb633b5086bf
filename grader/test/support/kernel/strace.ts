// Reads what strace saw (`strace -f -y`: every descriptor printed with its path) into each
// case's operations: only successful calls on paths in a case's folder, between the driver's marks.
import { constants as c } from "node:fs";
import type { RawOp } from "./meaning.js";

/** The system calls traced: every way Node and libuv open, write, sync, truncate, rename, remove and make (sendfile and copy_file_range are how a copy writes). */
export const TRACED = [
  "openat", "open", "creat", "write", "pwrite64", "writev", "pwritev", "pwritev2", "sendfile", "copy_file_range", "fsync", "fdatasync",
  "rename", "renameat", "renameat2", "unlink", "unlinkat", "rmdir", "ftruncate", "truncate", "mkdir", "mkdirat", "chmod", "fchmodat", "close",
];

/** The marks the driver opens (and fails to) around the calls it makes for real. */
export const MARKS = { begin: ".calls-begin", end: ".calls-end" };

interface Call {
  name: string;
  args: string[];
  result: string;
}

/** Each case's operations, by case id, from strace's output of a run whose real calls were made in `<folder>/<id>/`. */
export function straceOps(output: string, folder: string): Map<string, RawOp[]> {
  const byCase = new Map<string, RawOp[]>();
  const opened = new Map<string, { path: string; key: string }>(); // descriptor -> the open it stands for
  let opens = 0;
  let on = false;
  for (const call of calls(output)) {
    if (call.args.some((a) => a.includes(MARKS.begin))) on = true;
    if (call.args.some((a) => a.includes(MARKS.end))) break;
    if (!on || /^-1 /.test(call.result)) continue;
    const op = opOf(call, opened, () => `k${++opens}`);
    if (!op) continue;
    const paths = "from" in op ? [op.from, op.to] : [op.path];
    const inCase = paths.map((p) => caseOf(p, folder));
    if (!inCase[0] || inCase.some((x) => x?.id !== inCase[0]!.id)) continue;
    const relative = inCase.map((x) => x!.rest);
    const local = ("from" in op ? { ...op, from: relative[0]!, to: relative[1]! } : { ...op, path: relative[0]! }) as RawOp;
    byCase.set(inCase[0].id, [...(byCase.get(inCase[0].id) ?? []), local]);
  }
  return byCase;
}

function caseOf(p: string, folder: string): { id: string; rest: string } | null {
  if (!p.startsWith(folder + "/")) return null;
  const [id, ...rest] = p.slice(folder.length + 1).split("/");
  return { id: id!, rest: rest.join("/") || "." };
}

/** The calls in strace's output, a call cut by another thread's ("<unfinished ...>", "<... resumed>") made whole again. */
function* calls(output: string): Generator<Call> {
  const unfinished = new Map<string, string>();
  for (const raw of output.split("\n")) {
    // "<pid>  call(...)" with -o and -f; "[pid <pid>] call(...)" on standard error.
    const pid = /^(?:\[pid\s+(\d+)\]|(\d+)) +/.exec(raw);
    let line = pid ? raw.slice(pid[0].length) : raw;
    const key = pid?.[1] ?? pid?.[2] ?? "main";
    if (line.endsWith(" <unfinished ...>")) {
      unfinished.set(key, line.slice(0, -" <unfinished ...>".length));
      continue;
    }
    const resumed = /^<\.\.\. \w+ resumed>/.exec(line);
    if (resumed) line = (unfinished.get(key) ?? "") + line.slice(resumed[0].length);
    const m = /^(\w+)\((.*)\)\s+= (.*)$/.exec(line);
    if (m) yield { name: m[1]!, args: splitArgs(m[2]!), result: m[3]! };
  }
}

/** Splits strace's arguments at the commas outside quotes, brackets and descriptor paths. */
function splitArgs(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === "\\") i++;
      else if (ch === '"') quoted = false;
    } else if (ch === '"') quoted = true;
    else if ("<[{".includes(ch)) depth++;
    else if (">]}".includes(ch)) depth--;
    else if (ch === "," && depth === 0) {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(text.slice(start).trim());
  return out;
}

/** The path a descriptor argument is printed with ("21</a/b>", "AT_FDCWD</cwd>"). */
function fdPath(arg: string): string {
  return /<(.*)>/.exec(arg)?.[1] ?? "";
}

/** A path argument, relative ones resolved against the folder descriptor before them. */
function pathArg(arg: string, dirArg?: string): string {
  const p = JSON.parse(arg.replace(/\.\.\.$/, "")) as string;
  return p.startsWith("/") ? p : `${fdPath(dirArg ?? "AT_FDCWD")}/${p}`;
}

function flagsOf(text: string): number {
  return text.split("|").reduce((all, name) => all | (/^\d/.test(name) ? parseInt(name, 8) : ((c as Record<string, number>)[name] ?? 0)), 0);
}

/** The descriptor's path at its open, as the recording fs names it (strace prints the path it has now). */
function atOpen(arg: string, opened: Map<string, { path: string }>): string {
  return opened.get(arg.split("<")[0]!)?.path ?? fdPath(arg);
}

function opOf({ name, args, result }: Call, opened: Map<string, { path: string; key: string }>, nextOpen: () => string): RawOp | null {
  const fdKey = (arg: string) => opened.get(arg.split("<")[0]!)?.key ?? arg;
  switch (name) {
    case "open":
    case "openat":
    case "creat": {
      const [dir, p, flags, mode] = name === "openat" ? args : [undefined, ...args];
      const path = pathArg(p!, dir);
      const key = nextOpen();
      opened.set(result.split("<")[0]!, { path, key });
      if (name === "creat") return { kind: "open", path, flags: c.O_CREAT | c.O_WRONLY | c.O_TRUNC, mode: parseInt(flags!, 8), fd: key };
      return { kind: "open", path, flags: flagsOf(flags!), mode: mode === undefined ? undefined : parseInt(mode, 8), fd: key };
    }
    case "close":
      opened.delete(args[0]!.split("<")[0]!);
      return null;
    case "write":
    case "writev":
    case "pwrite64":
    case "pwritev":
    case "pwritev2": {
      const position = name.startsWith("p") ? Number(args[3]) : null;
      return { kind: "write", path: atOpen(args[0]!, opened), bytes: Number(result.split(" ")[0]), position: position === -1 ? null : position, fd: fdKey(args[0]!) };
    }
    case "sendfile":
      return { kind: "write", path: atOpen(args[0]!, opened), bytes: Number(result.split(" ")[0]), position: null, fd: fdKey(args[0]!) };
    case "copy_file_range": {
      const at = /^\[(\d+)\]$/.exec(args[3]!);
      return { kind: "write", path: atOpen(args[2]!, opened), bytes: Number(result.split(" ")[0]), position: at ? Number(at[1]) : null, fd: fdKey(args[2]!) };
    }
    case "fsync":
    case "fdatasync":
      return { kind: "fsync", path: atOpen(args[0]!, opened), data: name === "fdatasync" };
    case "ftruncate":
      return { kind: "truncate", path: atOpen(args[0]!, opened), length: Number(args[1]), fd: fdKey(args[0]!) };
    case "truncate":
      return { kind: "truncate", path: pathArg(args[0]!), length: Number(args[1]) };
    case "rename":
      return { kind: "rename", from: pathArg(args[0]!), to: pathArg(args[1]!) };
    case "renameat":
    case "renameat2":
      return { kind: "rename", from: pathArg(args[1]!, args[0]), to: pathArg(args[3]!, args[2]) };
    case "unlink":
      return { kind: "unlink", path: pathArg(args[0]!) };
    case "rmdir":
      return { kind: "rmdir", path: pathArg(args[0]!) };
    case "unlinkat":
      return { kind: args[2]!.includes("AT_REMOVEDIR") ? "rmdir" : "unlink", path: pathArg(args[1]!, args[0]) };
    case "mkdir":
      return { kind: "mkdir", path: pathArg(args[0]!), mode: parseInt(args[1]!, 8) };
    case "mkdirat":
      return { kind: "mkdir", path: pathArg(args[1]!, args[0]), mode: parseInt(args[2]!, 8) };
    case "chmod":
      return { kind: "chmod", path: pathArg(args[0]!), mode: parseInt(args[1]!, 8) };
    case "fchmodat":
      return { kind: "chmod", path: pathArg(args[1]!, args[0]), mode: parseInt(args[2]!, 8) };
    default:
      return null;
  }
}
