// How the recording fs reads the arguments of the calls it records, as Node's own fs reads them:
// paths (strings, Buffers, file: URLs), data to write and where, attribute values, cp's options.
import realFs from "node:fs";
import { fileURLToPath } from "node:url";
import { invalidArgValue } from "./fs-errors.js";

export type PathLike = string | Buffer | URL;

/** A path argument (a string, a Buffer or a file: URL) as a string. */
export function toPath(p: PathLike): string {
  if (p instanceof URL) return fileURLToPath(p);
  return Buffer.isBuffer(p) ? p.toString() : String(p);
}

export interface CpOptions {
  recursive?: boolean;
  force?: boolean;
  errorOnExist?: boolean;
  dereference?: boolean;
  preserveTimestamps?: boolean;
  mode?: number;
  filter?: (src: string, dest: string) => boolean;
}

export function exists(p: string): boolean {
  try {
    realFs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** A mode, an id or a time as a number (a time in seconds, as Node takes it). */
export function toAttrNumber(value: unknown): number {
  if (value instanceof Date) return value.getTime() / 1000;
  return Number(value);
}

export function toBytes(data: any, encoding?: BufferEncoding): Uint8Array {
  if (typeof data === "string") return Buffer.from(data, encoding ?? "utf8");
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(String(data), encoding ?? "utf8");
}

/** Normalises the two `writeSync` forms to the bytes to write and the position. */
export function writeArgs(data: any, rest: any[]): { bytes: Uint8Array; position: number | null } {
  if (typeof data === "string") {
    const [position, encoding] = rest;
    checkEncoding(data, encoding);
    return { bytes: Buffer.from(data, encoding ?? "utf8"), position: typeof position === "number" ? position : null };
  }
  const view = toBytes(data);
  let [offset, length, position] = rest;
  if (offset !== null && typeof offset === "object") ({ offset, length, position } = offset);
  offset = offset ?? 0;
  length = length ?? view.byteLength - offset;
  return { bytes: view.subarray(offset, offset + length), position: typeof position === "number" ? position : null };
}

/** Node's writeSync and write take no hex string of odd length (a half byte), where Buffer.from drops the half byte. */
function checkEncoding(data: string, encoding: unknown): void {
  if (String(encoding).toLowerCase() === "hex" && data.length % 2 !== 0) throw invalidArgValue("encoding", encoding, `is invalid for data of length ${data.length}`);
}
