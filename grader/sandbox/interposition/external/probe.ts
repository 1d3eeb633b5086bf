// The folder of a probe: what a shell line's probes saw between its programs (see probed-line.ts).
// The grader cannot list the scenario folder while a command runs (it waits for it), so each probe
// is a Node process of its own, started by the line's shell between two programs: it lists the
// folder with the very code of snapshot.ts (its source, run there), writes the listing to
// `<k>.json`, and keeps the content of each file that changed since the listing before it (by
// digest, under content/): the operations of a program that wrote a file another program changed
// later must carry what that file held then. The folder is a hidden one in the scenario folder,
// the one place the target's user surely may write, and no listing holds it.
import fs from "node:fs";
import path from "node:path";
import { LIST_FOLDER_SOURCE, PROBE_FOLDER_PREFIX, type Snapshot, type SnapshotNode } from "./snapshot.js";

/** The shell function a line's probes call, with the probe's number: it passes on the status of the program before it. */
export const PROBE_FUNCTION = "__grader_between_programs";

/** What the probes of one command saw, and the shell function that runs them. */
export class ProbeFolder {
  private constructor(readonly dir: string) {}

  /** A probe folder in the scenario folder `root`, holding `before` as listing 0; null when it cannot be made. */
  static open(root: string, before: Snapshot): ProbeFolder | null {
    let dir: string | undefined;
    try {
      dir = fs.mkdtempSync(path.join(root, PROBE_FOLDER_PREFIX));
      fs.mkdirSync(path.join(dir, "content"));
      fs.writeFileSync(path.join(dir, "0.json"), JSON.stringify([...before]));
      fs.writeFileSync(path.join(dir, "probe.cjs"), probeProgram(root, dir));
      return new ProbeFolder(dir);
    } catch {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
      return null;
    }
  }

  /**
   * The definition of the shell function, for the head of the line. Node's own options from the
   * target's environment are dropped, and the probe reads and prints nothing the line could see.
   */
  shellFunction(): string {
    const probe = `NODE_OPTIONS= ${quote(process.execPath)} ${quote(path.join(this.dir, "probe.cjs"))} "$1" </dev/null >/dev/null 2>&1`;
    return `${PROBE_FUNCTION}() { __grader_status=$?; ${probe}; return $__grader_status; }\n`;
  }

  /** The folder as probe `k` listed it; undefined when that probe did not run or did not finish. */
  listing(k: number): Snapshot | undefined {
    try {
      return new Map(JSON.parse(fs.readFileSync(path.join(this.dir, `${k}.json`), "utf8")) as [string, SnapshotNode][]);
    } catch {
      return undefined;
    }
  }

  /** What `rel` held when `listing` was taken (it changed since the listing before). */
  content(listing: Snapshot, rel: string): Buffer {
    const digest = listing.get(rel)?.digest;
    if (digest === undefined) throw new Error(`the probe between programs did not list ${rel}`);
    return fs.readFileSync(path.join(this.dir, "content", digest));
  }

  /** Removes the folder (before the folder after the command is judged by anyone else). */
  close(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The probe's program: a CommonJS script that needs nothing but Node. */
function probeProgram(root: string, dir: string): string {
  return `"use strict";
const fs = require("fs"), path = require("path"), { createHash } = require("crypto");
const listFolder = ${LIST_FOLDER_SOURCE};
const root = ${JSON.stringify(root)}, dir = ${JSON.stringify(dir)};
const k = Number(process.argv[2]);
// The listing this one follows: the last one taken (a probe that failed left none).
let before = k - 1;
while (before > 0 && !fs.existsSync(path.join(dir, before + ".json"))) before--;
const previous = new Map(JSON.parse(fs.readFileSync(path.join(dir, before + ".json"), "utf8")));
const nodes = listFolder({ fs, path, createHash }, root, true, ${JSON.stringify(PROBE_FOLDER_PREFIX)});
for (const [rel, node] of nodes) {
  const old = previous.get(rel);
  if (node.kind !== "file" || (old && old.kind === "file" && old.sig === node.sig && old.digest === node.digest)) continue;
  const kept = path.join(dir, "content", node.digest);
  if (!fs.existsSync(kept)) fs.copyFileSync(path.join(root, rel), kept);
}
// Whole or not at all: a listing that is there is one the probe finished.
fs.writeFileSync(path.join(dir, k + ".json.part"), JSON.stringify(nodes));
fs.renameSync(path.join(dir, k + ".json.part"), path.join(dir, k + ".json"));
`;
}

/** A word the shell reads as it is. */
function quote(word: string): string {
  return `'${word.replace(/'/g, "'\\''")}'`;
}
