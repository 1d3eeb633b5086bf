// How the recording fs reads the arguments of the calls it records, as Node's own fs reads them:
// paths (strings, Buffers, file: URLs), data to write and where, attribute values, cp's options.
import realFs from "node:fs";
import { fileURLToPath } from "node:url";
import { invalidArgValue, invalidDataType } from "./fs-errors.js";

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

/** The bytes writeFileSync and appendFileSync write of `data`, or the error Node's throw for data or an encoding they do not take. */
export function toBytes(data: any, encoding?: BufferEncoding): Uint8Array {
  if (encoding !== undefined && encoding !== null && !Buffer.isEncoding(encoding)) throw invalidArgValue("encoding", encoding, "is invalid encoding");
  if (typeof data === "string") return Buffer.from(data, encoding ?? "utf8");
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw invalidDataType("data", data);
}

/** A mode as Node takes it: a number, or a string of octal digits ("700"); anything else is passed on for Node to refuse. */
export function toMode<T>(mode: T): T | number {
  return typeof mode === "string" && /^[0-7]+$/.test(mode) ? parseInt(mode, 8) : mode;
}

/** Normalises the two `writeSync` forms to the bytes to write and the position. */
export function writeArgs(data: any, rest: any[]): { bytes: Uint8Array; position: number | null } {
  if (typeof data === "string") {
    const [position, encoding] = rest;
    checkEncoding(data, encoding);
    // An encoding Node does not know writes UTF-8, as Node's writeSync does.
    return { bytes: Buffer.from(data, Buffer.isEncoding(encoding) ? encoding : "utf8"), position: typeof position === "number" ? position : null };
  }
  if (!ArrayBuffer.isView(data)) throw invalidDataType("buffer", data);
  const view = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
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
