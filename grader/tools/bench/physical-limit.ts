// The bare work one crash state of a state of a given size needs, whatever the engine: write its
// JSON on the scratch disk, read it back, JSON.parse it. The engine's crash states per second at
// that size are compared with this.
import fs from "node:fs";
import path from "node:path";

/** Crash states per second if each cost only writing, reading and parsing `state`'s JSON in `dir` (median of `runs` timed batches). */
export function physicalLimit(state: unknown, dir: string, runs = 5): { perSecond: number; bytes: number } {
  const text = JSON.stringify(state);
  const file = path.join(dir, "physical-limit.json");
  const bytes = Buffer.byteLength(text);
  // A batch of about 50 ms of work, so the smallest sizes are not timed one system call at a time.
  const once = () => {
    fs.writeFileSync(file, text);
    JSON.parse(fs.readFileSync(file, "utf8"));
  };
  once();
  const probe = process.hrtime.bigint();
  once();
  const perBatch = Math.max(1, Math.round(50 / Math.max(0.01, Number(process.hrtime.bigint() - probe) / 1e6)));
  const rates: number[] = [];
  for (let r = 0; r < runs; r++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < perBatch; i++) once();
    rates.push(perBatch / (Number(process.hrtime.bigint() - started) / 1e9));
  }
  fs.rmSync(file, { force: true });
  rates.sort((a, b) => a - b);
  return { perSecond: rates[Math.floor(rates.length / 2)]!, bytes };
}
