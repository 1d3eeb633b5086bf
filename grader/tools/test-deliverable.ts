// `npm run test:deliverable -- <id>...`: the fast path for whoever changes one deliverable's checks.
// Runs the vitest project `deliverable` (grader/test/deliverable.test.ts) on the deliverables named:
// the reference graded on each keeps every point, and each fixture that shows its checks at work
// loses exactly the checks of it that the fixture lists. The whole evidence stays `npm test` and
// `npm run test:submissions`.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { closest } from "../closest.js";
import { cannotStart, readWords, unknownOption } from "../cli/command-line.js";
import { REPO_ROOT } from "../paths.js";
import { loadRubric } from "../rubric.js";

/** The environment variable that tells grader/test/deliverable.test.ts which deliverables to test, by id, comma separated. */
export const DELIVERABLES_VARIABLE = "CHECKPOINT_LAB_TEST_DELIVERABLES";

const USAGE = `Usage: npm run test:deliverable -- <deliverable>...

Grades the reference and the fixtures of each deliverable named (grader/rubric.json's ids:
phase1, power-loss, ...) on that deliverable alone, two grades at a time.`;

/** The deliverables named on the command line; throws on an option or a name the manifest has not. */
export function namedDeliverables(argv: string[], ids: string[]): string[] {
  const named = readWords(argv, {}).map((word) => {
    if (word.kind !== "positional") throw unknownOption(word.arg);
    if (ids.includes(word.arg)) return word.arg;
    const near = closest(word.arg, ids);
    throw new Error(`no deliverable ${JSON.stringify(word.arg)} in grader/rubric.json${near ? ` (did you mean ${near}?)` : `: its deliverables are ${ids.join(", ")}`}`);
  });
  if (named.length === 0) throw new Error("name a deliverable");
  return [...new Set(named)];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let named: string[];
  try {
    named = namedDeliverables(process.argv.slice(2), loadRubric().deliverables.map((d) => d.id));
  } catch (error) {
    console.error(cannotStart("test:deliverable", error, USAGE));
    process.exit(2);
  }
  const vitest = path.join(REPO_ROOT, "node_modules/vitest/vitest.mjs");
  const run = spawnSync(process.execPath, [vitest, "run", "--project", "deliverable"], { cwd: REPO_ROOT, stdio: "inherit", env: { ...process.env, [DELIVERABLES_VARIABLE]: named.join(",") } });
  process.exit(run.status ?? 1);
}
