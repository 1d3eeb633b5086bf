// The lab's manifest (grader/rubric.json): it validates against its schema, it and the grader's
// code define the same checks, every file and folder it implies exists, and the README's tables
// are written from it. Runs in seconds.
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { describe, expect, test } from "vitest";
import { deliverableEntries, deliverableEntry } from "../cli/deliverable-entry.js";
import { GRADER_BUILD } from "../cli/grader-build.mjs";
import { DEFINED_IDS } from "../checks/ids.js";
import { DELIVERABLES } from "../checks/index.js";
import { REPO_ROOT } from "../paths.js";
import { assertChecksMatchManifest, deliverableModules, deliverablePoints, deliverablesOfFile, loadRubric, rubricDeliverable, type Rubric } from "../rubric.js";
import { DOCUMENTS, withManifestTables, writtenFromManifest } from "../tools/readme-tables.js";
import { assertMatchesSchema } from "../schemas.js";

const rubric = loadRubric();
const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
const README = DOCUMENTS.find((d) => d.file === "README.md")!;
const exists = (relative: string) => fs.existsSync(path.join(REPO_ROOT, relative));

describe("the manifest and the grader's code", () => {
  test("each deliverable the code defines is in the manifest with exactly the checks the code defines, and the other way round", () => {
    expect(DELIVERABLES.map((d) => d.id).sort()).toEqual(rubric.deliverables.map((d) => d.id).sort());
    for (const d of DELIVERABLES) expect(() => assertChecksMatchManifest(rubric, d.id, d.checks.map((c) => c.id))).not.toThrow();
  });

  test("the ids a grade checks the manifest against at load (checks/ids.ts) are exactly the deliverables and checks the code defines", () => {
    const ids = (defs: readonly { id: string; checks: readonly { id: string }[] }[]) => defs.map((d) => `${d.id}: ${d.checks.map((c) => c.id).sort().join(" ")}`).sort();
    expect(ids(DEFINED_IDS)).toEqual(ids(DELIVERABLES));
  });

  test("a check the code defines that the manifest lacks, and one the manifest lists that the code lacks, are errors that name them", () => {
    const phase1 = DELIVERABLES.find((d) => d.id === "phase1")!;
    const ids = phase1.checks.map((c) => c.id);
    expect(() => assertChecksMatchManifest(rubric, "phase1", [...ids, "phase1.extra"])).toThrow(/defines the check phase1\.extra, which the rubric does not list under phase1/);
    expect(() => assertChecksMatchManifest(rubric, "phase1", ids.slice(1))).toThrow(new RegExp(`lists the check ${ids[0]!.replace(".", "\\.")}, which the grader does not define`));
  });

  test("each deliverable's checks folder, student file, reference file and fixtures folder exist under the names the manifest implies", () => {
    for (const d of rubric.deliverables) {
      const wanted = [`grader/checks/${d.id}/index.ts`, `starter/${d.file}`, `solution/${d.file}`, `grader/fixtures/${d.id}`];
      expect(wanted.filter((f) => !exists(f)), d.id).toEqual([]);
    }
  });

  test("each deliverable's made entry compiles from its checks folder, whose index.ts exports the definition with the manifest's id", async () => {
    for (const d of rubric.deliverables) {
      const exported = Object.values(await import(/* @vite-ignore */ path.join(REPO_ROOT, "grader/checks", d.id, "index.ts"))) as { id?: string }[];
      expect(exported.filter((e) => e?.id === d.id), d.id).toHaveLength(1);
    }
    const built = await build({ ...GRADER_BUILD, plugins: [deliverableEntries], entryPoints: { phase2: deliverableEntry("phase2") }, write: false, outdir: "out", metafile: true, logLevel: "silent" });
    const inputs = Object.keys(built.metafile.inputs);
    expect(inputs).toContain("grader/checks/phase2/index.ts");
    expect(inputs).toContain("grader/grading/harness.ts");
    await expect(build({ ...GRADER_BUILD, plugins: [deliverableEntries], entryPoints: { nothing: deliverableEntry("no-such-deliverable") }, write: false, outdir: "out", logLevel: "silent" })).rejects.toThrow(/no-such-deliverable\/index\.js/);
  });

  test("a deliverable compiles its own file and the files of the deliverables it builds on, in the manifest's order", () => {
    expect(deliverableModules(rubric, "phase1")).toEqual({ main: "checkpoint", earlier: [] });
    expect(deliverableModules(rubric, "phase3")).toEqual({ main: "session", earlier: ["runner", "checkpoint"] });
    expect(deliverablesOfFile(rubric, "checkpoint.ts")).toEqual(["phase1", "power-loss", "concurrency", "disk-faults"]);
  });
});

describe("the README's and the handout's tables and numbers are written from the manifest (npm run readme-tables)", () => {
  test("README.md and HANDOUT.md hold exactly the tables and numbers the manifest gives", () => {
    expect(DOCUMENTS.map((d) => d.file)).toEqual(["README.md", "HANDOUT.md"]);
    for (const doc of DOCUMENTS) {
      const text = fs.readFileSync(path.join(REPO_ROOT, doc.file), "utf8");
      expect(writtenFromManifest(text, rubric, doc), `${doc.file} differs from the manifest: run npm run readme-tables`).toBe(text);
    }
  });

  test("a check's points or words changed in the manifest change its row and the deliverable's total", () => {
    const edited: Rubric = structuredClone(rubric);
    const check = edited.deliverables.find((d) => d.id === "phase2")!.checks[0]!;
    check.points += 1;
    check.asks = "something else";
    const tables = withManifestTables(readme, edited, README);
    expect(tables).toContain(`| \`${check.id}\` | ${check.points} | something else |`);
    expect(tables).toContain(`| \`phase2\` crash recovery | \`runner.ts\` | ${deliverablePoints(rubricDeliverable(rubric, "phase2")) + 1} |`);
  });

  test("an enabled deliverable without a table, or a table without its end, is an error that names it", () => {
    const withoutPhase3 = readme.replace("<!-- from grader/rubric.json: checks phase3 -->", "");
    expect(() => withManifestTables(withoutPhase3, rubric, README)).toThrow(/^README\.md: no table for checks phase3 \(add a line/);
    const unended = readme.replace(/(<!-- from grader\/rubric\.json: checks phase1 -->[^]*?)<!-- end of table -->/, "$1");
    const line = readme.split("\n").indexOf("<!-- from grader/rubric.json: checks phase1 -->") + 1;
    expect(() => withManifestTables(unended, rubric, README)).toThrow(`README.md:${line}: the table "checks phase1" has no "<!-- end of table -->" line after it`);
  });

  test("the sentence that opens each deliverable's table of checks gives its points", () => {
    for (const d of rubric.deliverables.filter((d) => d.enabled)) {
      const at = readme.indexOf(`<!-- from grader/rubric.json: checks ${d.id} -->`);
      const before = readme.slice(0, at).split("\n\n").filter((p) => p.trim() !== "").at(-1)!;
      expect(before, d.id).toMatch(new RegExp(`\\(${deliverablePoints(d)} ${d.kind === "bonus" ? "bonus " : ""}points\\)`));
    }
  });
});

describe("the manifest's schema", () => {
  const broken = (edit: (r: Rubric) => void): unknown => {
    const copy = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "grader/rubric.json"), "utf8")) as Rubric;
    edit(copy);
    return copy;
  };

  test("the shipped manifest validates", () => {
    expect(() => assertMatchesSchema("rubric", JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "grader/rubric.json"), "utf8")), "rubric")).not.toThrow();
  });

  test("a wrong manifest is refused with the field that is wrong, named by its path and id", () => {
    const cases: [string, (r: Rubric) => void, string][] = [
      ["points missing", (r) => delete (r.deliverables[0]!.checks[1] as Partial<Rubric["deliverables"][0]["checks"][0]>).points, 'rubric: deliverables[0] (phase1).checks[1] (phase1.absent) needs "points"'],
      ["a check that does not say what it asks", (r) => delete (r.deliverables[1]!.checks[0] as Partial<Rubric["deliverables"][0]["checks"][0]>).asks, 'rubric: deliverables[1] (phase2).checks[0] (phase2.complete-run) needs "asks"'],
      ["a kind of its own", (r) => ((r.deliverables[1] as { kind: string }).kind = "extra"), 'rubric: deliverables[1] (phase2).kind must be one of "core", "bonus", got "extra"'],
      ["an unknown key", (r) => Object.assign(r.deliverables[2]!, { weight: 3 }), 'rubric: deliverables[2] (phase3) has an unknown key "weight"'],
      ["no file", (r) => delete (r.deliverables[0] as Partial<Rubric["deliverables"][0]>).file, 'rubric: deliverables[0] (phase1) needs "file"'],
      ["a negative limit", (r) => Object.assign(r, { limits: { callMs: -1 } }), "rubric: limits.callMs must be > 0, got -1"],
    ];
    for (const [what, edit, message] of cases) expect(() => assertMatchesSchema("rubric", broken(edit), "rubric"), what).toThrow(message);
  });
});

describe("a grade with a manifest the code does not match", () => {
  test("stops at load with exit 2 and one line that names the check the manifest lacks and where, without a stack or the usage", async () => {
    const { dir } = await import("tmp-promise");
    const { grade } = await import("./support/grade.js");
    const tmp = await dir({ unsafeCleanup: true });
    try {
      const lacking = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "grader/rubric.json"), "utf8")) as Rubric;
      lacking.deliverables[0]!.checks = lacking.deliverables[0]!.checks.filter((c) => c.id !== "phase1.absent");
      const text = JSON.stringify(lacking, null, 2);
      fs.writeFileSync(path.join(tmp.path, "rubric.json"), text);
      // Phase 1's "checks" are the first in the file.
      const line = text.split("\n").findIndex((l) => l.trim() === '"checks": [') + 1;
      const run = await grade(path.join(REPO_ROOT, "solution"), ["--only", "phase1.round-trip", "--rubric", "rubric.json"], tmp.path);
      expect(run.exitCode).toBe(2);
      expect(run.stderr.trim()).toBe(`grade: rubric.json:${line}:7: the grader defines the check phase1.absent, which the rubric does not list under phase1: add it (with "points": 0 to leave it unscored)`);
    } finally {
      await tmp.cleanup();
    }
  });
});

describe("the report's schema", () => {
  test("its schemaVersion is the code's SCHEMA_VERSION, and a report missing a check's points is refused naming the check", async () => {
    const { SCHEMA_VERSION } = await import("../report/report.js");
    const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "grader/report/report.schema.json"), "utf8")) as { properties: { schemaVersion: { const: number } } };
    expect(schema.properties.schemaVersion.const).toBe(SCHEMA_VERSION);
    const check = { id: "phase1.absent", title: "t", status: "passed", maxPoints: 4, crashStates: 0 };
    const report = { schemaVersion: SCHEMA_VERSION, target: "", seed: 1, score: 0, maxScore: 4, bonus: 0, maxBonus: 0, stats: { crashStates: 0, durationMs: 1 }, deliverables: [{ id: "phase1", title: "t", kind: "core", status: "graded", points: 0, maxPoints: 4, checks: [check] }] };
    expect(() => assertMatchesSchema("report", report, "report")).toThrow('report: deliverables[0] (phase1).checks[0] (phase1.absent) needs "points"');
    expect(() => assertMatchesSchema("report", { ...report, deliverables: [{ ...report.deliverables[0], checks: [{ ...check, points: 4 }] }] }, "report")).not.toThrow();
  });

  test("a saved report of another schemaVersion is refused as another grader's, not field by field; what graded it needs its Node version, and a commit goes with dirty", async () => {
    const { SCHEMA_VERSION } = await import("../report/report.js");
    const { readReport } = await import("../report/read-report.js");
    const { dir } = await import("tmp-promise");
    const tmp = await dir({ unsafeCleanup: true });
    try {
      const file = path.join(tmp.path, "old.json");
      const report = { schemaVersion: SCHEMA_VERSION, target: "", seed: 1, score: 0, maxScore: 0, bonus: 0, maxBonus: 0, stats: { crashStates: 0, durationMs: 1 }, deliverables: [] };
      fs.writeFileSync(file, JSON.stringify({ ...report, schemaVersion: SCHEMA_VERSION - 1 }));
      expect(() => readReport(file)).toThrow(`report: schemaVersion ${SCHEMA_VERSION - 1} was written by an older grader; this one reads ${SCHEMA_VERSION}: grade again to write it`);
      const commit = "f7eee31ed1f130f30562ed6d28fa1974e0a16d07";
      expect(() => assertMatchesSchema("report", { ...report, gradedWith: { node: "v22.12.0", commit, dirty: false } }, "report")).not.toThrow();
      expect(() => assertMatchesSchema("report", { ...report, gradedWith: { commit, dirty: false } }, "report")).toThrow('report: gradedWith needs "node"');
      expect(() => assertMatchesSchema("report", { ...report, gradedWith: { node: "v22.12.0", commit } }, "report")).toThrow(/gradedWith/);
    } finally {
      await tmp.cleanup();
    }
  });
});
