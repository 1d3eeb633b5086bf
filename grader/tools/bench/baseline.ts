// The naive baseline the benchmark compares the engine with, written the way a TA would: for each
// crash point, a fresh `tsx` process writes the checkpoint and SIGKILLs itself at the k-th
// file-system call, and another fresh `tsx` process loads what was left.
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT, SOLUTION_DIR } from "../../paths.js";

const CRASH_SCRIPT = `
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
const [k, file, oldFile, nextFile] = process.argv.slice(2);
fs.copyFileSync(oldFile, file);
let calls = 0;
for (const name of ["openSync", "writeSync", "fsyncSync", "closeSync", "renameSync", "unlinkSync", "writeFileSync"]) {
  const real = fs[name];
  fs[name] = (...args) => { if (++calls === Number(k)) process.kill(process.pid, "SIGKILL"); return real(...args); };
}
syncBuiltinESMExports();
const { atomicCheckpoint } = await import(${JSON.stringify(path.join(SOLUTION_DIR, "checkpoint.ts"))});
atomicCheckpoint(file, JSON.parse(fs.readFileSync(nextFile, "utf8")));
`;

const LOAD_SCRIPT = `
const { loadCheckpoint } = await import(${JSON.stringify(path.join(SOLUTION_DIR, "checkpoint.ts"))});
process.stdout.write(JSON.stringify(loadCheckpoint(process.argv[2])));
`;

/** Runs `points` crash points the naive way over `dir`; returns the seconds each one took. */
export async function naiveBaseline(dir: string, old: unknown, next: unknown, points: number[]): Promise<number[]> {
  const crash = path.join(dir, "crash.mts");
  const load = path.join(dir, "load.mts");
  const oldFile = path.join(dir, "old.json");
  const nextFile = path.join(dir, "next.json");
  fs.writeFileSync(crash, CRASH_SCRIPT);
  fs.writeFileSync(load, LOAD_SCRIPT);
  fs.writeFileSync(oldFile, JSON.stringify(old));
  fs.writeFileSync(nextFile, JSON.stringify(next));
  const seconds: number[] = [];
  for (const k of points) {
    const folder = fs.mkdtempSync(path.join(dir, "point-"));
    const file = path.join(folder, "checkpoint.json");
    const started = process.hrtime.bigint();
    await execa(process.execPath, ["--import", "tsx", crash, String(k), file, oldFile, nextFile], { cwd: REPO_ROOT, reject: false });
    const loaded = await execa(process.execPath, ["--import", "tsx", load, file], { cwd: REPO_ROOT, reject: false });
    seconds.push(Number(process.hrtime.bigint() - started) / 1e9);
    const value = JSON.stringify(JSON.parse(loaded.stdout || "null"));
    if (value !== JSON.stringify(old) && value !== JSON.stringify(next)) throw new Error(`baseline: crash point ${k} loaded ${value.slice(0, 80)}`);
    fs.rmSync(folder, { recursive: true, force: true });
  }
  return seconds;
}
