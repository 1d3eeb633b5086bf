// What known programs do beyond what a listing of the folder shows: which ones make data durable
// (`sync`, `dd conv=fsync`), how `dd oflag=sync` writes, which ones never write a file in place,
// and which ones replace an existing file through a temporary name and a rename (GNU `ln -f`,
// `sed -i`), as strace shows them on GNU coreutils 9.1 and sed 4.9. `cp`, `mv`, `install`, `cat` and the rest never fsync.
import path from "node:path";
import type { SimpleCommand } from "../../../crash/command-line.js";

/** Files a program makes durable when it ends: "all" for everything; `data`: fdatasync. */
export interface Durability {
  paths: string[] | "all";
  data: boolean;
}

/** What `sync` or `dd` makes durable (absolute paths), or null for a program that syncs nothing. */
export function durabilityOf(cmd: SimpleCommand): Durability | null {
  if (cmd.program === "sync") {
    const options = cmd.args.filter((a) => a.startsWith("-"));
    const files = cmd.args.filter((a) => !a.startsWith("-")).map((a) => path.resolve(cmd.cwd, a));
    // Without files, or with -f (syncfs: the whole file system of each), everything.
    if (files.length === 0 || options.some((o) => o === "-f" || o === "--file-system")) return { paths: "all", data: false };
    return { paths: files, data: options.some((o) => o === "-d" || o === "--data") };
  }
  if (cmd.program === "dd") {
    const dd = ddOptions(cmd);
    if (dd.of && (dd.conv.includes("fsync") || dd.conv.includes("fdatasync"))) return { paths: [dd.of], data: !dd.conv.includes("fsync") };
  }
  return null;
}

/** The block size at which `dd oflag=sync|dsync` makes each write durable before the next; undefined otherwise. */
export function syncedBlockSize(cmd: SimpleCommand): number | undefined {
  if (cmd.program !== "dd") return undefined;
  const dd = ddOptions(cmd);
  return dd.oflag.includes("sync") || dd.oflag.includes("dsync") ? dd.obs : undefined;
}

/**
 * False for programs that never write an existing file in place: `mv` (across file systems it
 * removes the destination and writes a new file) and `install` (removes it first too). A file
 * system may give the new file the inode number just freed, so the inode alone cannot tell.
 */
export function writesInPlace(cmd: SimpleCommand | undefined): boolean {
  return cmd?.program !== "mv" && cmd?.program !== "install";
}

/** The temporary name a program gives a replacement before renaming it over an existing file, or undefined when it writes in place or removes first. */
export function replacementTemp(cmd: SimpleCommand | undefined): string | undefined {
  if (cmd?.program === "ln" && cmd.args.some((a) => /^-[a-zA-Z]*f/.test(a) || a === "--force")) return "CuXXXXXX";
  if (cmd?.program === "sed" && cmd.args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith("--in-place"))) return "sedXXXXXX";
  return undefined;
}

interface DdOptions {
  of?: string;
  conv: string[];
  oflag: string[];
  obs: number;
}

/** dd's operands: the output file (absolute), conversions, output flags and output block size. */
function ddOptions(cmd: SimpleCommand): DdOptions {
  const operand = (name: string) => cmd.args.filter((a) => a.startsWith(name + "=")).map((a) => a.slice(name.length + 1)).at(-1);
  const list = (name: string) => cmd.args.filter((a) => a.startsWith(name + "=")).flatMap((a) => a.slice(name.length + 1).split(","));
  const of = operand("of");
  return { of: of === undefined ? undefined : path.resolve(cmd.cwd, of), conv: list("conv"), oflag: list("oflag"), obs: size(operand("obs") ?? operand("bs")) ?? 512 };
}

/** A dd size ("4096", "4K", "1M", "2x512" is not read): bytes, or undefined. */
function size(text: string | undefined): number | undefined {
  const m = text?.match(/^(\d+)(c|w|b|kB|K|KiB|k|MB|M|MiB)?$/);
  if (!m) return undefined;
  const unit = { c: 1, w: 2, b: 512, kB: 1000, K: 1024, KiB: 1024, k: 1024, MB: 1e6, M: 1 << 20, MiB: 1 << 20 }[m[2] ?? "c"]!;
  return Number(m[1]) * unit || undefined;
}
