// What a student reads of a crash inside a program the target ran (crash/describe-command.ts): the
// command, each file it touched and how far it got, temp names hidden. Each string was read off the
// engine and checked against what the program had done at that point.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { commandSpans } from "../../crash/commands.js";
import { describeCut } from "../../crash/describe.js";
import type { Trace } from "../../crash/model.js";
import { Recorder } from "../../sandbox/interposition/recorder.js";
import { createRecordingChildProcess } from "../../sandbox/interposition/recording-exec.js";
import { NEW, TMP } from "../support/describe-cut.js";
import { layScenario, scratchFolder } from "../support/model-fs.js";

const scratch = scratchFolder();

describe("a crash inside a program the target ran", () => {
  /** Runs `lines` with the sandbox's child_process in a work folder holding `files`; the trace. */
  function recordCommands(files: Record<string, string>, lines: string[], tmpFiles: Record<string, string> = {}): { trace: Trace; root: string } {
    const root = layScenario(scratch.fresh("commands"));
    for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(root, "work", rel), text);
    for (const [rel, text] of Object.entries(tmpFiles)) fs.writeFileSync(path.join(root, "tmp", rel), text);
    const rec = new Recorder(root);
    const cp = createRecordingChildProcess(() => rec);
    for (const l of lines) cp.execSync(l.replace("$ROOT", root), { cwd: path.join(root, "work") });
    return { trace: rec.trace(), root };
  }
  /** What a student reads for a crash after each operation of the `n`-th command, and in the middle (3 bytes in) of each of its writes. */
  function toldInside(trace: Trace, n: number): string[] {
    const span = commandSpans(trace)[n]!;
    const out: string[] = [];
    for (let i = span.start; i < span.end; i++) {
      if (trace.entries[i]!.kind === "write") out.push(describeCut(trace, { at: i, bytes: 3 }, 0, { call: "runTask" }));
      out.push(describeCut(trace, { at: i + 1 }, 0, { call: "runTask" }));
    }
    return out;
  }

  test("cp onto a file: how far the destination got, then finished; mv by its name alone, a temp name hidden, an absolute path in the work folder shown relative to it", () => {
    const { trace } = recordCommands({ t: NEW, "checkpoint.json": "{}", [TMP]: NEW }, ["cp t checkpoint.json", `mv -f $ROOT/work/${TMP} checkpoint.json`]);
    expect(toldInside(trace, 0)).toEqual([
      "killed inside `cp t checkpoint.json`: checkpoint.json had 0 of 40 bytes",
      "killed inside `cp t checkpoint.json`: checkpoint.json had 3 of 40 bytes",
      "killed inside `cp t checkpoint.json`: checkpoint.json had 40 of 40 bytes",
      "killed right after `cp t checkpoint.json` finished",
    ]);
    expect(toldInside(trace, 1)).toEqual(["killed right after `mv -f .checkpoint.json.*.*.tmp checkpoint.json` finished"]);
  });

  test("ln -f and sed -i, which replace a file through a temporary name: the temporary name's state until the rename", () => {
    const { trace } = recordCommands({ t: NEW, "checkpoint.json": "{}" }, ["ln -f t checkpoint.json", "sed -i s/2/3/ checkpoint.json"]);
    expect(toldInside(trace, 0)).toEqual(["killed inside `ln -f t checkpoint.json`: CuXXXXXX had been linked to t", "killed right after `ln -f t checkpoint.json` finished"]);
    expect(toldInside(trace, 1)).toEqual([
      "killed inside `sed -i s/2/3/ checkpoint.json`: sedXXXXXX had 0 of 40 bytes",
      "killed inside `sed -i s/2/3/ checkpoint.json`: sedXXXXXX had 3 of 40 bytes",
      "killed inside `sed -i s/2/3/ checkpoint.json`: sedXXXXXX had 40 of 40 bytes",
      "killed inside `sed -i s/2/3/ checkpoint.json`: sedXXXXXX had 40 of 40 bytes",
      "killed right after `sed -i s/2/3/ checkpoint.json` finished",
    ]);
  });

  test("a shell line: each file the line touched, in the order it first touched them; a removal; a folder made; a file from $TMPDIR", () => {
    const { trace } = recordCommands({ t: NEW, "checkpoint.json": "{}" }, ["rm -f checkpoint.json && mv t checkpoint.json", "mkdir -p sub && cp $ROOT/tmp/x.tmp sub/z"], { "x.tmp": "tmpdata" });
    expect(toldInside(trace, 0)).toEqual([
      "killed inside `rm -f checkpoint.json && mv t checkpoint.json`: checkpoint.json had been removed",
      "killed right after `rm -f checkpoint.json && mv t checkpoint.json` finished",
    ]);
    expect(toldInside(trace, 1)).toEqual([
      "killed inside `mkdir -p sub && cp $TMPDIR/x.tmp sub/z`: the folder sub had been made",
      "killed inside `mkdir -p sub && cp $TMPDIR/x.tmp sub/z`: the folder sub had been made and sub/z had 0 of 7 bytes",
      "killed inside `mkdir -p sub && cp $TMPDIR/x.tmp sub/z`: the folder sub had been made and sub/z had 3 of 7 bytes",
      "killed inside `mkdir -p sub && cp $TMPDIR/x.tmp sub/z`: the folder sub had been made and sub/z had 7 of 7 bytes",
      "killed right after `mkdir -p sub && cp $TMPDIR/x.tmp sub/z` finished",
    ]);
  });

  test("dd oflag=dsync writes and syncs block by block: the bytes written so far count across its blocks, with how many of them its last fsync made durable", () => {
    const { trace } = recordCommands({ "checkpoint.json": NEW }, ["dd if=checkpoint.json of=copy oflag=dsync bs=16 status=none"]);
    const command = "`dd if=checkpoint.json of=copy oflag=dsync bs=16 status=none`";
    expect(toldInside(trace, 0)).toEqual([
      `killed inside ${command}: copy had 0 of 40 bytes`,
      `killed inside ${command}: copy had 3 of 40 bytes`,
      `killed inside ${command}: copy had 16 of 40 bytes`,
      `killed inside ${command}: copy had 16 of 40 bytes, all synced`,
      `killed inside ${command}: copy had 19 of 40 bytes, 16 of them synced`,
      `killed inside ${command}: copy had 32 of 40 bytes, 16 of them synced`,
      `killed inside ${command}: copy had 32 of 40 bytes, all synced`,
      `killed inside ${command}: copy had 35 of 40 bytes, 32 of them synced`,
      `killed inside ${command}: copy had 40 of 40 bytes, 32 of them synced`,
      `killed inside ${command}: copy had 40 of 40 bytes, all synced`,
      `killed right after ${command} finished`,
    ]);
  });

  test("sync: a crash inside it is told as inside it, not as right after the command before it, with how many of the files and folders it syncs it had synced; a sync of one file names it", () => {
    const { trace } = recordCommands({ a: "A" }, ["cp a b", "sync", "sync b"]);
    const synced = (n: number) => `killed inside \`sync\`: it had synced ${n} of 6 files and folders`;
    // `sync` syncs everything in the scenario folder: the folder itself, cwd, tmp, work, a and b, each opened, fsynced and closed.
    expect(toldInside(trace, 1)).toEqual([
      "killed inside `sync`: it had not changed anything yet",
      ...[1, 2, 3, 4, 5].flatMap((n) => [synced(n), synced(n), synced(n)]),
      synced(6),
      "killed right after `sync` finished",
    ]);
    expect(toldInside(trace, 2)).toEqual(["killed inside `sync b`: it had not changed anything yet", "killed inside `sync b`: it had synced b", "killed right after `sync b` finished"]);
  });

  test("ln -s to an absolute path in the work folder: the link's target is told relative to the work folder", () => {
    const { trace } = recordCommands({ a: NEW }, ["ln -s $ROOT/work/a current && cp a c"]);
    expect(toldInside(trace, 0)).toEqual([
      "killed inside `ln -s a current && cp a c`: current had been made a link to a",
      "killed inside `ln -s a current && cp a c`: current had been made a link to a and c had 0 of 40 bytes",
      "killed inside `ln -s a current && cp a c`: current had been made a link to a and c had 3 of 40 bytes",
      "killed inside `ln -s a current && cp a c`: current had been made a link to a and c had 40 of 40 bytes",
      "killed right after `ln -s a current && cp a c` finished",
    ]);
  });
});
