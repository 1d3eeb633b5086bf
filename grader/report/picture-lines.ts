// A failure's picture (picture.ts) in the terminal: a few lines above its story, drawn from the
// same record. The calls of the crashed call in a column, numbered, with the crash marked between
// two of them (or inside a write, with a bar of the bytes that reached the file), then the files
// the crash left. A fault is marked with ✗ under the call the disk said no to (a write's bar: the
// bytes it wrote), and the calls after it, which ran, follow it. At most about 12 lines, never wider than the terminal, and readable without
// colour: every mark is a word or a sign as well as a colour.
import type pc from "picocolors";
import stringWidth from "string-width";
import { cut } from "./cut-to-width.js";
import { diffLines } from "./picture-lines-diff.js";
import { lanesLines } from "./picture-lines-lanes.js";
import { runsLines } from "./picture-lines-runs.js";
import { opNumbers, type CallsPicture, type Picture, type PictureFile } from "../contract/picture.js";

type Colors = ReturnType<typeof pc.createColors>;

/** Calls shown before the crash at most; the rest are counted on one line, as are those after it. */
const BEFORE = 3;
/** Lines for the files the crash left, when they do not fit on one. */
const FILES = 2;
const BAR = 10;
/** The most lines a picture takes. */
const MAX_LINES = 12;

const HOLDS: Record<PictureFile["holds"], string> = { old: "old state", new: "new state", torn: "part of a state", empty: "empty", other: "other bytes" };

/** A failure's picture, of any kind, as lines for a terminal `width` columns wide, indented by `indent`. */
export function pictureLines(picture: Picture, opts: { width: number; indent: number; c: Colors }): string[] {
  switch (picture.kind) {
    case "calls":
      return callsLines(picture, opts);
    case "runs":
      return runsLines(picture, opts);
    case "lanes":
      return lanesLines(picture, opts);
    case "diff":
      return diffLines(picture, opts);
  }
}

/** A "calls" picture's lines for a terminal `width` columns wide, indented by `indent`. */
export function callsLines(picture: CallsPicture, opts: { width: number; indent: number; c: Colors }): string[] {
  const { width, indent, c } = opts;
  const pad = " ".repeat(indent);
  const fit = (text: string) => pad + cut(text, width - indent);
  const { ops } = picture;
  const { afterOps, written, how } = picture.cut;
  const numbers = opNumbers(picture);
  const numberWidth = String(Math.max(1, ...numbers.filter((_, i) => !ops[i]!.skipped))).length;
  const blank = " ".repeat(numberWidth);
  const row = (i: number) => {
    const op = ops[i]!;
    if (op.skipped) return c.dim(fit(`${blank} … ${calls(op.skipped)} more`));
    return fit(`${String(numbers[i]).padStart(numberWidth)} ${op.what}${op.bytes !== undefined ? ` (${op.bytes} B)` : ""}`);
  };
  const marker = (text: string, sign = "✂") => c.red(c.bold(fit(`${" ".repeat(numberWidth - 1)}${sign} ${text}`)));
  const killed = how === "killed" ? "killed" : "the power was cut";
  const out = [c.dim(fit(`Calls of ${picture.call}:`))];
  const from = Math.max(0, afterOps - BEFORE);
  if (from > 0) out.push(c.dim(fit(`${blank} … ${calls(countCalls(ops.slice(0, from)))} before`)));
  for (let i = from; i < afterOps; i++) out.push(row(i));
  const files = filesLines(picture, { width, indent }).map((l) => c.dim(l));
  if (how === "fault") {
    out.push(row(afterOps), marker(faultText(picture), "✗"));
    // The calls after the fault ran: as many as fit, then how many more, up to the last.
    const rest = ops.slice(afterOps + 1);
    const room = MAX_LINES - out.length - files.length;
    const shown = rest.length <= room ? rest.length : Math.max(0, room - 1);
    for (let i = afterOps + 1; i < afterOps + 1 + shown; i++) out.push(row(i));
    const more = rest.slice(shown);
    if (more.length > 0) out.push(c.dim(fit(`${blank} … ${calls(countCalls(more))} more ran, to ${more.at(-1)!.what || "…"}`)));
    return [...out, ...files];
  }
  let next = afterOps;
  if (written !== undefined) {
    out.push(row(afterOps));
    const total = ops[afterOps]!.bytes ?? 0;
    out.push(marker(`${killed} inside it: ${written} of ${total} B reached the file ${bar(written, total)}`));
    next++;
  } else out.push(marker(afterOps >= ops.length ? `${killed} after its last call` : `${killed} here`));
  const rest = ops.slice(next);
  if (rest.length > 0) out.push(c.dim(fit(`${blank} never made: ${calls(countCalls(rest))}, from ${rest.find((o) => !o.skipped)?.what ?? "…"}`)));
  out.push(...files);
  return out;
}

/** What the disk did to the faulted call: "ENOSPC: 4 of 10 bytes written [####......]", or "EIO: this call failed". */
function faultText(picture: CallsPicture): string {
  const { written, fault } = picture.cut;
  if (written === undefined) return `${fault}: this call failed`;
  const total = picture.ops[picture.cut.afterOps]?.bytes ?? 0;
  return `${fault}: ${written} of ${total} bytes written ${bar(written, total)}`;
}

/** The files the crash left: on one line when they fit, else one line each (at most FILES lines). */
function filesLines(picture: CallsPicture, { width, indent }: { width: number; indent: number }): string[] {
  const pad = " ".repeat(indent);
  const head = { killed: "After the crash:", "power cut": "After the power cut:", fault: "After the call:" }[picture.cut.how];
  const files = picture.after.map((f) => `${f.name} (${f.bytes} B): ${HOLDS[f.holds]}`);
  const one = `${head} ${files.length ? files.join("; ") : "no files"}`;
  if (stringWidth(pad + one) <= width) return [pad + one];
  const shown = files.length > FILES ? files.slice(0, FILES - 1) : files;
  const rest = files.length - shown.length;
  return [pad + head, ...shown.map((f) => pad + cut(`  ${f}`, width - indent)), ...(rest ? [pad + cut(`  … ${rest} more files`, width - indent)] : [])];
}

function countCalls(ops: CallsPicture["ops"]): number {
  return ops.reduce((n, op) => n + (op.skipped ?? 1), 0);
}

function calls(n: number): string {
  return `${n} call${n === 1 ? "" : "s"}`;
}

/** "[####......]": how much of a write reached the file, in ten cells. */
function bar(written: number, total: number): string {
  const full = total === 0 ? 0 : Math.round((written / total) * BAR);
  return `[${"#".repeat(full)}${".".repeat(BAR - full)}]`;
}
