// The conformance driver, bundled and run by each Node under test (under strace): every case set
// up twice, its call made for real in `<root>/real/<id>` between two marks strace sees, then
// through the recording fs in `<root>/recorded/<id>`. Writes what each side returned and what
// the recorder recorded to the output file.
//   node driver.cjs <cases.json> <root> <out.json>
import realFs from "node:fs";
import path from "node:path";
import type { FsOp } from "../../../crash/model.js";
import { Recorder } from "../../../sandbox/interposition/recorder.js";
import { createRecordingFs, PendingOps } from "../../../sandbox/interposition/recording-fs.js";
import type { NamedCase } from "./cases.js";
import { numericFlags, type RawOp } from "./meaning.js";
import { runCase, setUp } from "./run-case.js";
import { MARKS } from "./strace.js";

export interface Outcome {
  error?: string;
  made?: string;
}

export interface DriverResult {
  node: string;
  cases: { id: string; real: Outcome; recorded: Outcome & { ops: RawOp[] } }[];
}

async function main(): Promise<void> {
  const [casesFile, root, outFile] = process.argv.slice(2) as [string, string, string];
  const cases = JSON.parse(realFs.readFileSync(casesFile, "utf8")) as NamedCase[];
  for (const c of cases) for (const side of ["real", "recorded"]) setUp(c, path.join(root, side, c.id));
  const real = new Map<string, Outcome>();
  mark(path.join(root, MARKS.begin));
  for (const c of cases) real.set(c.id, await runCase(realFs, c, path.join(root, "real", c.id)));
  mark(path.join(root, MARKS.end));

  let recorder: Recorder | null = null;
  const pending = new PendingOps();
  const fs = createRecordingFs(() => recorder, pending);
  const result: DriverResult = { node: process.versions.node, cases: [] };
  for (const c of cases) {
    const rec = (recorder = new Recorder(path.join(root, "recorded", c.id)));
    const outcome = await runCase(fs, c, rec.root);
    await pending.settle();
    recorder = null;
    const ops = rec.entries.flatMap((e) => (e.kind === "mark" || e.kind === "effect" ? [] : rawOf(e, rec)));
    result.cases.push({ id: c.id, real: real.get(c.id)!, recorded: { ...outcome, ops } });
  }
  realFs.writeFileSync(outFile, JSON.stringify(result));
}

/** A failed open of a name strace will show: where the real calls begin or end. */
function mark(file: string): void {
  try {
    realFs.openSync(file, "r");
  } catch {}
}

/** A recorded operation in the shape strace's are read into; paths relative to the case's folder. */
function rawOf(op: FsOp, rec: Recorder): RawOp[] {
  const local = (stored: string) => (stored === "@" ? "." : stored.replace(/^@\//, ""));
  const fdPath = (fd: number) => local(rec.pathOf(fd));
  switch (op.kind) {
    case "open":
      return [{ kind: "open", path: local(op.path), flags: numericFlags(op.flags), mode: op.mode, fd: `r${op.fd}` }];
    case "write":
      return [{ kind: "write", path: fdPath(op.fd), bytes: op.bytes.byteLength, position: op.position, fd: `r${op.fd}` }];
    case "fsync":
      return [{ kind: "fsync", path: fdPath(op.fd), data: op.data }];
    case "ftruncate":
      return [{ kind: "truncate", path: fdPath(op.fd), length: op.length, fd: `r${op.fd}` }];
    case "truncate":
      return [{ kind: "truncate", path: local(op.path), length: op.length }];
    case "rename":
      return [{ kind: "rename", from: local(op.from), to: local(op.to) }];
    case "unlink":
    case "rmdir":
      return [{ kind: op.kind, path: local(op.path) }];
    case "mkdir":
      return [{ kind: "mkdir", path: local(op.path), mode: op.mode }];
    case "attr":
      return op.call === "chmodSync" && op.path ? [{ kind: "chmod", path: local(op.path), mode: op.args[0]! }] : [];
    default:
      return []; // close, other attributes, links: not compared (see meaning.ts)
  }
}

await main();
