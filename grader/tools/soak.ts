// `npm run soak`: grades the same targets many times in a row and checks that every grade gives
// the same verdicts, points and messages (durations aside). Not part of `npm test`: it takes minutes.
//
//   npm run soak                      20 grades of solution/ and 20 of one buggy fixture
//   npm run soak -- --runs 5          fewer grades each
//   npm run soak -- --target <dir>    that folder instead (repeatable)
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "../paths.js";
import type { Report } from "../report/report.js";
import { comparable, composeTarget, grade } from "../test/support/grade.js";

const DEFAULT_FIXTURE = "grader/fixtures/phase2/skip-step-on-resume";

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "20" }, target: { type: "string", multiple: true } } });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 2) throw new Error(`--runs must be an integer >= 2, got ${values.runs}`);
  const targets = values.target?.map((t) => ({ label: t, dir: path.resolve(t), fixture: false })) ?? [
    { label: "solution", dir: path.join(REPO_ROOT, "solution"), fixture: false },
    { label: `${path.basename(DEFAULT_FIXTURE)} (fixture)`, dir: path.join(REPO_ROOT, DEFAULT_FIXTURE), fixture: true },
  ];
  let failures = 0;
  for (const t of targets) {
    const composed = t.fixture ? await composeTarget(t.dir) : null;
    try {
      const seconds: number[] = [];
      let first: { report: Report; text: string } | null = null;
      const differing: number[] = [];
      for (let i = 1; i <= runs; i++) {
        const started = Date.now();
        const run = await grade(composed?.path ?? t.dir);
        seconds.push((Date.now() - started) / 1000);
        if (!run.report) throw new Error(`grade ${i} of ${t.label} wrote no report (exit ${run.exitCode}):\n${run.stderr.slice(-2000)}`);
        const text = JSON.stringify(comparable(run.report));
        first ??= { report: run.report, text };
        if (text !== first.text) {
          differing.push(i);
          // Both reports are kept, to see which field differed.
          const keep = (n: number, r: Report) => {
            const file = path.join(REPO_ROOT, ".grade", `soak-${t.label.replace(/\W+/g, "-")}-${n}.json`);
            fs.mkdirSync(path.dirname(file), { recursive: true });
            fs.writeFileSync(file, JSON.stringify(r, null, 2) + "\n");
            return path.relative(REPO_ROOT, file);
          };
          console.log(`\n  grade ${i} differs from grade 1 in: ${differingChecks(first.report, run.report).join(", ") || "fields outside the checks"} (${keep(1, first.report)}, ${keep(i, run.report)})`);
        }
        process.stdout.write(`\r${t.label}: ${i}/${runs} grades, ${differing.length} different from the first`);
      }
      seconds.sort((a, b) => a - b);
      const median = seconds[Math.floor(seconds.length / 2)]!;
      const r = first!.report;
      console.log(`\n  score ${r.score}/${r.maxScore}, ${r.stats.crashStates} crash states; median ${median.toFixed(1)} s (min ${seconds[0]!.toFixed(1)}, max ${seconds.at(-1)!.toFixed(1)})`);
      console.log(differing.length === 0 ? `  all ${runs} reports identical` : `  DIFFERENT reports from grade(s) ${differing.join(", ")}`);
      failures += differing.length;
    } finally {
      await composed?.cleanup();
    }
  }
  return failures === 0 ? 0 : 1;
}

/** The ids of checks whose status, points or message differ between two reports. */
function differingChecks(a: Report, b: Report): string[] {
  const key = (r: Report) => new Map(r.deliverables.flatMap((d) => d.checks).map((c) => [c.id, JSON.stringify([c.status, c.points, c.message])]));
  const [ka, kb] = [key(a), key(b)];
  return [...new Set([...ka.keys(), ...kb.keys()])].filter((id) => ka.get(id) !== kb.get(id));
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`soak: ${(error as Error).message}`);
    process.exit(2);
  },
);
