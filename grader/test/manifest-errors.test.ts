// Mistakes in the lab's manifest (grader/rubric.json) as an instructor reads them: the file, line
// and column; for broken JSON the line and a caret; for a schema violation the field's path; for an
// unknown id the closest known one. A grade refuses such a manifest at load, whatever --only
// selects, with exit 2 and without the command line's usage. Each message is written out whole.
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import { loadRubric, parseRubric, type GraderDefinitions } from "../rubric.js";

/** A small manifest of two deliverables; each test breaks it in one place. */
const MANIFEST = `{
  "seed": 1,
  "deliverables": [
    {
      "id": "phase1",
      "title": "Phase 1: atomic checkpoint",
      "kind": "core",
      "enabled": true,
      "file": "checkpoint.ts",
      "checks": [
        { "id": "phase1.round-trip", "title": "loads back", "points": 8, "asks": "loads back" },
        { "id": "phase1.crash-safety", "title": "old or new", "points": 12, "asks": "old or new", "requires": ["phase1.round-trip"] }
      ]
    },
    {
      "id": "phase2",
      "title": "Phase 2: crash recovery",
      "kind": "core",
      "enabled": true,
      "file": "runner.ts",
      "buildsOn": ["phase1"],
      "checks": [{ "id": "phase2.complete-run", "title": "runs", "points": 8, "asks": "runs" }]
    }
  ]
}
`;

/** The checks the grader's code would define for MANIFEST. */
const GRADER: GraderDefinitions = [
  { id: "phase1", checks: [{ id: "phase1.round-trip" }, { id: "phase1.crash-safety" }] },
  { id: "phase2", checks: [{ id: "phase2.complete-run" }] },
];

/** MANIFEST with `edits` made (each found exactly once): what loading it says, or null. */
function told(...edits: [string, string][]): string | null {
  let text = MANIFEST;
  for (const [from, to] of edits) {
    expect(text.split(from).length, from).toBe(2);
    text = text.replace(from, to);
  }
  try {
    parseRubric(text, { file: "grader/rubric.json", grader: GRADER });
    return null;
  } catch (error) {
    expect((error as Error).name).toBe("ManifestError");
    return (error as Error).message;
  }
}

describe("a manifest that is not JSON is told by line and column, with the line and a caret", () => {
  test("the manifest the tests break is a sound one", () => {
    expect(told()).toBeNull();
  });

  test("a comma after the last item: the caret under the comma (a long line is cut around it)", () => {
    expect(told([`"requires": ["phase1.round-trip"] }`, `"requires": ["phase1.round-trip"] },`])).toBe(
      [
        'grader/rubric.json:12:134: a comma after the last item: JSON has none before "]"',
        '  12 | …ty", "title": "old or new", "points": 12, "asks": "old or new", "requires": ["phase1.round-trip"] },',
        "     |                                                                                                     ^",
      ].join("\n"),
    );
  });

  test("a comma missing between two keys: the caret where it goes", () => {
    expect(told([`"kind": "core",\n      "enabled": true,\n      "file": "runner.ts"`, `"kind": "core"\n      "enabled": true,\n      "file": "runner.ts"`])).toBe(
      ["grader/rubric.json:18:21: a comma is missing after this value", '  18 |       "kind": "core"', "     |                     ^"].join("\n"),
    );
  });

  test("a key without double quotes", () => {
    expect(told([`"seed": 1`, `seed: 1`])).toBe(["grader/rubric.json:2:3: the key seed is not in double quotes", "  2 |   seed: 1,", "    |   ^"].join("\n"));
  });

  test("a comment, where a key or a value goes", () => {
    const said = 'a comment: JSON has none (the manifest takes a "$comment" key at its top)';
    expect(told([`"seed": 1,`, `// the seed\n  "seed": 1,`])).toBe([`grader/rubric.json:2:3: ${said}`, "  2 |   // the seed", "    |   ^"].join("\n"));
    expect(told([`"seed": 1,`, `"seed": /* one */ 1,`])).toBe([`grader/rubric.json:2:11: ${said}`, '  2 |   "seed": /* one */ 1,', "    |           ^"].join("\n"));
  });

  test("a key given twice in one object, which JSON.parse would take without a word", () => {
    expect(told([`"seed": 1,`, `"seed": 1,\n  "seed": 2,`])).toBe(
      ['grader/rubric.json:3:3: the key "seed" is in this object twice (first at line 2); JSON would keep the last', '  3 |   "seed": 2,', "    |   ^"].join("\n"),
    );
  });
});

describe("a manifest its schema refuses is told by the field's path and its line", () => {
  test("each field that is wrong, in the order of the file: a negative number, a kind of its own, an unknown key (at the key)", () => {
    expect(told([`"points": 12`, `"points": -12`], [`"kind": "core",\n      "enabled": true,\n      "file": "runner.ts",`, `"kind": "extra",\n      "enabled": true,\n      "file": "runner.ts",\n      "weight": 2,`])).toBe(
      [
        "grader/rubric.json:12:73: deliverables[0] (phase1).checks[1] (phase1.crash-safety).points must be >= 0, got -12",
        'grader/rubric.json:18:15: deliverables[1] (phase2).kind must be one of "core", "bonus", got "extra"',
        'grader/rubric.json:21:7: deliverables[1] (phase2) has an unknown key "weight"',
      ].join("\n"),
    );
  });

  test("a field missing: at the object that lacks it", () => {
    expect(told([`"title": "runs", "points": 8, "asks": "runs"`, `"title": "runs", "asks": "runs"`])).toBe('grader/rubric.json:22:18: deliverables[1] (phase2).checks[0] (phase2.complete-run) needs "points"');
  });
});

describe("an id the manifest or the grader does not know is told with the closest known one", () => {
  test("a check `requires` that is misspelt", () => {
    expect(told([`"requires": ["phase1.round-trip"]`, `"requires": ["phase1.round-trp"]`])).toBe(
      "grader/rubric.json:12:112: phase1.crash-safety requires phase1.round-trp, which is not a check of the rubric (did you mean phase1.round-trip?)",
    );
  });

  test("a circle of requirements, told once at the requirement that closes it, and a check that requires itself", () => {
    expect(told([`"asks": "loads back" }`, `"asks": "loads back", "requires": ["phase1.crash-safety"] }`])).toBe(
      "grader/rubric.json:11:109: phase1.round-trip requires phase1.crash-safety, which requires phase1.round-trip: a circle of requirements, so none of them could ever be scored; remove one of them",
    );
    expect(told([`"asks": "runs" }]`, `"asks": "runs", "requires": ["phase2.complete-run"] }]`])).toBe(
      "grader/rubric.json:22:108: phase2.complete-run requires itself, so it could never be scored; remove that requirement",
    );
  });

  test("a deliverable `buildsOn` that is misspelt", () => {
    expect(told([`"buildsOn": ["phase1"]`, `"buildsOn": ["phase-1"]`])).toBe("grader/rubric.json:21:20: phase2 builds on phase-1, which is not a deliverable of the rubric (did you mean phase1?)");
  });

  test("a check renamed in the manifest (and in what requires it), which the grader defines under its old id: one line, not one per mention", () => {
    expect(told([`{ "id": "phase1.round-trip"`, `{ "id": "phase1.round-trp"`], [`"requires": ["phase1.round-trip"]`, `"requires": ["phase1.round-trp"]`])).toBe(
      "grader/rubric.json:11:17: the rubric lists the check phase1.round-trp, which the grader does not define (did you mean phase1.round-trip?)",
    );
    expect(told([`{ "id": "phase1.round-trip"`, `{ "id": "phase1.round-trp"`])).toBe(
      "grader/rubric.json:11:17: the rubric lists the check phase1.round-trp, which the grader does not define (did you mean phase1.round-trip?)",
    );
  });

  test("a check the grader defines that the manifest lacks: at the deliverable's checks", () => {
    expect(told([`{ "id": "phase1.round-trip", "title": "loads back", "points": 8, "asks": "loads back" },\n`, ""], [`, "requires": ["phase1.round-trip"]`, ""])).toBe(
      'grader/rubric.json:10:7: the grader defines the check phase1.round-trip, which the rubric does not list under phase1: add it (with "points": 0 to leave it unscored)',
    );
  });

  test("a check the manifest lists that the grader lacks, with no id close to it", () => {
    expect(told([`"asks": "runs" }]`, `"asks": "runs" }, { "id": "phase2.resume", "title": "r", "points": 1, "asks": "r" }]`])).toBe(
      "grader/rubric.json:22:105: the rubric lists the check phase2.resume, which the grader does not define (grader/checks/phase2/): remove it, or mind its spelling",
    );
  });

  test("a file that is not there", () => {
    expect(() => loadRubric(path.join(REPO_ROOT, "grader/no-such-rubric.json"))).toThrow("grader/no-such-rubric.json: cannot read it (there is no such file)");
  });
});

describe("a grade and grade-batch refuse such a manifest at load: exit 2, the message, no usage", () => {
  /** The repository's manifest in a temp folder as rubric.json, after `edit`; the run is given its folder as cwd, so messages name it "rubric.json". */
  async function withManifest(edit: (text: string) => string, run: (cwd: string, text: string) => Promise<void>): Promise<void> {
    const tmp = await dir({ unsafeCleanup: true });
    try {
      const text = edit(fs.readFileSync(path.join(REPO_ROOT, "grader/rubric.json"), "utf8"));
      fs.writeFileSync(path.join(tmp.path, "rubric.json"), text);
      await run(tmp.path, text);
    } finally {
      await tmp.cleanup();
    }
  }
  /** The line and column of `needle`, which must be in `text` once, as "12:17". */
  const placeOf = (text: string, needle: string) => {
    expect(text.split(needle).length, needle).toBe(2);
    const before = text.slice(0, text.indexOf(needle)).split("\n");
    return `${before.length}:${before.at(-1)!.length + 1}`;
  };

  test("grade: a misspelt check of another deliverable than --only selects stops it at load", async () => {
    const { grade } = await import("./support/grade.js");
    await withManifest(
      (text) => text.replace('"id": "stretch-git.commits"', '"id": "stretch-git.comits"'),
      async (cwd, text) => {
        const run = await grade(path.join(REPO_ROOT, "solution"), ["--only", "phase1.absent", "--rubric", "rubric.json"], cwd);
        expect(run.exitCode).toBe(2);
        expect(run.stderr.trim()).toBe(`grade: rubric.json:${placeOf(text, '"stretch-git.comits"')}: the rubric lists the check stretch-git.comits, which the grader does not define (did you mean stretch-git.commits?)`);
        expect(run.stdout).toBe("");
      },
    );
  });

  test("grade-batch: a manifest that is not JSON, with the line and a caret", async () => {
    await withManifest(
      (text) => text.replace('"seed": ', "seed: "),
      async (cwd, text) => {
        const tsx = path.join(REPO_ROOT, "node_modules/.bin/tsx");
        const run = await execa(tsx, [path.join(REPO_ROOT, "grader/tools/grade-batch.ts"), cwd, "--out", "grades.csv", "--rubric", "rubric.json"], { cwd, reject: false, env: { NO_COLOR: "1" } });
        expect(run.exitCode).toBe(2);
        const [line] = placeOf(text, "seed: ").split(":");
        const shown = `  ${line} | ${text.split("\n")[Number(line) - 1]}`;
        expect(run.stderr.trim()).toBe(`grade-batch: rubric.json:${line}:3: the key seed is not in double quotes\n${shown}\n  ${" ".repeat(line!.length)} |   ^`);
        expect(fs.existsSync(path.join(cwd, "grades.csv"))).toBe(false);
      },
    );
  });
});
