// `npm run profile-top -- <folder> [--depth 4] [--top 25]`: where the time of the CPU profiles a
// grade wrote under GRADE_CPU_PROFILE=<folder> went. Prints, over all the profiles together, the
// call paths (a function and the callers above it, `--depth` deep) that spent the most time on
// a processor themselves, idle time and the garbage collector each on a line of their own.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

function main(): void {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { depth: { type: "string", default: "4" }, top: { type: "string", default: "25" } } });
  const folder = positionals[0];
  if (!folder) throw new Error("expected the folder GRADE_CPU_PROFILE named: npm run profile-top -- <folder>");
  const files = fs.readdirSync(folder).filter((f) => f.endsWith(".cpuprofile"));
  if (files.length === 0) throw new Error(`no .cpuprofile files in ${folder}: grade with GRADE_CPU_PROFILE=${folder} first`);
  const spent = new Map<string, number>();
  let total = 0;
  for (const file of files) {
    const profile = JSON.parse(fs.readFileSync(path.join(folder, file), "utf8")) as CpuProfile;
    for (const [where, micros] of callPaths(profile, Number(values.depth))) {
      spent.set(where, (spent.get(where) ?? 0) + micros);
      total += micros;
    }
  }
  console.log(`${files.length} profiles, ${(total / 1e6).toFixed(1)} s sampled; the call paths that spent the most:`);
  for (const [where, micros] of [...spent].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) {
    console.log(`${(micros / 1e3).toFixed(0).padStart(8)} ms ${((micros / total) * 100).toFixed(1).padStart(5)}%  ${where}`);
  }
}

/** Each sample's time, by its function and the `depth - 1` callers above it ("f < caller < ..."). */
function callPaths(profile: CpuProfile, depth: number): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);
  const name = (id: number) => {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    return url ? `${functionName || "(anonymous)"} (${path.basename(url)}:${lineNumber + 1})` : functionName;
  };
  const spent = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const names: string[] = [];
    for (let at: number | undefined = id; at !== undefined && names.length < depth; at = parentOf.get(at)) if (byId.get(at)!.callFrame.functionName !== "(root)") names.push(name(at));
    const where = names.join(" < ");
    spent.set(where, (spent.get(where) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return spent;
}

try {
  main();
} catch (error) {
  console.error(`profile-top: ${(error as Error).message}`);
  process.exit(2);
}
