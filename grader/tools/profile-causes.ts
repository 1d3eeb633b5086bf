// `npm run profile-causes -- <folder>`: where the processor time of a grade run with
// GRADE_CPU_CAUSES=<folder> went, by cause (grader/tools/bench/cpu-causes.ts).
import { parseArgs } from "node:util";
import { causeProfileLines, profileOfFolder } from "./bench/cpu-causes.js";

try {
  const folder = parseArgs({ allowPositionals: true }).positionals[0];
  if (!folder) throw new Error("expected the folder GRADE_CPU_CAUSES named: npm run profile-causes -- <folder>");
  const profile = profileOfFolder(folder);
  if (Object.keys(profile.processes).length === 0) throw new Error(`no records in ${folder}: grade with GRADE_CPU_CAUSES=${folder} first`);
  for (const line of causeProfileLines(profile)) console.log(line);
} catch (error) {
  console.error(`profile-causes: ${(error as Error).message}`);
  process.exit(2);
}
