// npm run readme-tables writes HANDOUT.md's tables and numbers from the manifest as well as
// README.md's, refuses a manifest with a mistake without writing anything, and says where a marker
// it cannot follow is. Run on copies in a temp folder, never on the repository's files.
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import { loadRubric, type Rubric } from "../rubric.js";
import { withManifestNumbers } from "../tools/manifest-numbers.js";
import { DOCUMENTS, writtenFromManifest } from "../tools/readme-tables.js";

const rubric = loadRubric();
const HANDOUT = DOCUMENTS.find((d) => d.file === "HANDOUT.md")!;

/** README.md, HANDOUT.md and the manifest copied into a temp folder (the manifest as grader/rubric.json, after `edit`); `readme-tables` runs there. */
async function inCopy(edit: (text: string) => string, use: (run: (...args: string[]) => Promise<{ exitCode: number; stdout: string; stderr: string }>, read: (file: string) => string, write: (file: string, text: string) => void) => Promise<void>): Promise<void> {
  const tmp = await dir({ unsafeCleanup: true });
  try {
    for (const doc of DOCUMENTS) fs.copyFileSync(path.join(REPO_ROOT, doc.file), path.join(tmp.path, doc.file));
    fs.mkdirSync(path.join(tmp.path, "grader"));
    fs.writeFileSync(path.join(tmp.path, "grader/rubric.json"), edit(fs.readFileSync(path.join(REPO_ROOT, "grader/rubric.json"), "utf8")));
    const tsx = path.join(REPO_ROOT, "node_modules/.bin/tsx");
    const run = async (...args: string[]) => {
      const r = await execa(tsx, [path.join(REPO_ROOT, "grader/tools/readme-tables.ts"), "--rubric", "grader/rubric.json", "--dir", ".", ...args], { cwd: tmp.path, reject: false, env: { NO_COLOR: "1" } });
      return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
    };
    await use(
      run,
      (file) => fs.readFileSync(path.join(tmp.path, file), "utf8"),
      (file, text) => fs.writeFileSync(path.join(tmp.path, file), text),
    );
  } finally {
    await tmp.cleanup();
  }
}

/** The lines of `after` that differ from `before`'s, as "line: before → after" (both have the same number of lines). */
function changedLines(before: string, after: string): string[] {
  const a = before.split("\n");
  const b = after.split("\n");
  expect(b.length).toBe(a.length);
  return a.flatMap((line, i) => (line === b[i] ? [] : [`${line} → ${b[i]}`]));
}

describe("npm run readme-tables on a copy of the documents", () => {
  test("after a points change, HANDOUT.md's table row, the deliverable's and the core total's points and the sample failure's 0/N change, and nothing else; README.md's tables and sentences follow", async () => {
    const edit = (text: string) => {
      const points = (id: string, from: number, to: number) => {
        const at = text.indexOf(`"id": "${id}"`);
        const end = text.indexOf(`"points": ${from}`, at);
        expect(at >= 0 && end >= 0, id).toBe(true);
        return text.slice(0, end) + `"points": ${to}` + text.slice(end + `"points": ${from}`.length);
      };
      text = points("stretch-git.killed-in-commit", 2, 5);
      return points("phase1.crash-safety", 12, 11);
    };
    await inCopy(edit, async (run, read) => {
      const handout = read("HANDOUT.md");
      const readme = read("README.md");
      const { exitCode, stdout, stderr } = await run();
      expect({ exitCode, stderr }).toEqual({ exitCode: 0, stderr: "" });
      expect(stdout.trim().split("\n")).toEqual(["README.md: written from grader/rubric.json", "HANDOUT.md: written from grader/rubric.json"]);
      expect(changedLines(handout, read("HANDOUT.md"))).toEqual([
        "Bonus deliverables are reported beside the core 100 points. → Bonus deliverables are reported beside the core 99 points.",
        "`stretch-git`, 10 points. Write the Phase 2 runner again, with git keeping the checkpoint → `stretch-git`, 13 points. Write the Phase 2 runner again, with git keeping the checkpoint",
        "| `stretch-git.killed-in-commit` | 2 | killed inside a git command that writes (`git add`, `git commit`); then as above | → | `stretch-git.killed-in-commit` | 5 | killed inside a git command that writes (`git add`, `git commit`); then as above |",
        "✗ killed inside git (stale index.lock), recovers                 0/2 → ✗ killed inside git (stale index.lock), recovers                 0/5",
        "✗ a crash inside atomicCheckpoint leaves the old or new state    0/12 → ✗ a crash inside atomicCheckpoint leaves the old or new state    0/11",
      ]);
      // The README's too: two rows, two totals in the table of deliverables, two sentences that open a table.
      expect(changedLines(readme, read("README.md")).filter((l) => !l.startsWith("|"))).toEqual([
        "Phase 1 checks (35 points): → Phase 1 checks (34 points):",
        "Git-backed checkpoint checks (10 bonus points) run your `git-checkpoint.ts`, a `runTask` with → Git-backed checkpoint checks (13 bonus points) run your `git-checkpoint.ts`, a `runTask` with",
      ]);
      expect(changedLines(readme, read("README.md")).filter((l) => l.startsWith("|"))).toHaveLength(4);
      const again = await run("--check");
      expect(again.exitCode).toBe(0);
    });
  });

  test("--check exits 1, naming HANDOUT.md, while only the handout differs from the manifest", async () => {
    await inCopy(
      (text) => text,
      async (run, read, write) => {
        const same = await run("--check");
        expect({ exitCode: same.exitCode, stdout: same.stdout.trim(), stderr: same.stderr }).toEqual({ exitCode: 0, stdout: "README.md: says what grader/rubric.json says\nHANDOUT.md: says what grader/rubric.json says", stderr: "" });
        const stale = read("HANDOUT.md").replace("0/12", "0/13");
        write("HANDOUT.md", stale);
        const { exitCode, stdout, stderr } = await run("--check");
        expect({ exitCode, stdout: stdout.trim(), stderr: stderr.trim() }).toEqual({
          exitCode: 1,
          stdout: "README.md: says what grader/rubric.json says",
          stderr: "HANDOUT.md: its tables or numbers differ from grader/rubric.json; run npm run readme-tables to write them",
        });
        expect(read("HANDOUT.md")).toBe(stale);
      },
    );
  });

  test("a manifest with a mistake is refused with exit 2 and the grade's own message, and neither document is written", async () => {
    await inCopy(
      (text) => text.replace('"id": "disk-faults.disk-full"', '"id": "disk-faults.disk-ful"'),
      async (run, read) => {
        const before = DOCUMENTS.map((d) => read(d.file));
        const text = read("grader/rubric.json");
        const at = text.split('"disk-faults.disk-ful"')[0]!.split("\n");
        const { exitCode, stdout, stderr } = await run();
        expect({ exitCode, stdout }).toEqual({ exitCode: 2, stdout: "" });
        expect(stderr.trim()).toBe(`readme-tables: grader/rubric.json:${at.length}:${at.at(-1)!.length + 1}: the rubric lists the check disk-faults.disk-ful, which the grader does not define (did you mean disk-faults.disk-full?)`);
        expect(DOCUMENTS.map((d) => read(d.file))).toEqual(before);
      },
    );
  });
});

describe("HANDOUT.md's markers", () => {
  const edited = (edit: (r: Rubric) => void): Rubric => {
    const copy = structuredClone(rubric);
    edit(copy);
    return copy;
  };

  test("a table of checks keeps the handout's words row by row; a check new to it gets its asks, and one gone loses its row", () => {
    const doc = ["<!-- from grader/rubric.json: checks disk-faults -->", "", "| check | points | what it asks |", "|---|---|---|", "| `disk-faults.short-writes` | 1 | the handout's words |", "| `disk-faults.gone` | 2 | gone |", "", "<!-- end of table -->", ""].join("\n");
    const out = writtenFromManifest(doc, rubric, HANDOUT);
    const checks = rubric.deliverables.find((d) => d.id === "disk-faults")!.checks;
    expect(out).toBe(
      [
        "<!-- from grader/rubric.json: checks disk-faults -->",
        "",
        "| check | points | what it asks |",
        "|---|---|---|",
        `| \`disk-faults.short-writes\` | ${checks[0]!.points} | the handout's words |`,
        ...checks.slice(1).map((c) => `| \`${c.id}\` | ${c.points} | ${c.asks} |`),
        "",
        "<!-- end of table -->",
        "",
      ].join("\n"),
    );
  });

  test("a number's words may wrap across lines; a list of numbers is one value", () => {
    const doc = ["<!-- from grader/rubric.json: MiB a file, in \"files of up to # MiB\" -->", "a process may use 512 MiB of memory and write files of up to", "64 MiB. After it"].join("\n");
    expect(withManifestNumbers(doc, edited((r) => (r.limits.fileMiB = 128)), "HANDOUT.md")).toBe(doc.replace("64 MiB", "128 MiB"));
  });

  test("a marker it cannot follow is an error at its line: a name it does not know, an id the manifest lacks, words not below it or there twice", () => {
    const marked = (marker: string, below: string) => `# Title\n\n<!-- from grader/rubric.json: ${marker} -->\n${below}\n`;
    const message = (marker: string, below = "the core 100 points, 100 points") => {
      try {
        withManifestNumbers(marked(marker, below), rubric, "HANDOUT.md");
        return null;
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(message('core pionts, in "core # points"')).toBe('HANDOUT.md:3: no number is named "core pionts" (did you mean core points?); the names are points of <id>, core points, seed, seconds a call, seconds a process, MiB of memory, MiB a file, KiB of output kept, steps of the task, step after the last, steps of the sessions, step of the kill, steps the comparison crashes');
    expect(message('points of stretch-gti, in "core # points"')).toBe("HANDOUT.md:3: stretch-gti is no deliverable or check of the manifest (did you mean stretch-git?)");
    expect(message('core points, in "bonus # points"')).toBe('HANDOUT.md:3: "bonus # points" is not in the block below');
    expect(message('core points, in "# points"')).toBe('HANDOUT.md:3: "# points" is in the block below 2 times: quote more of its words');
    expect(message('core points, in "core points"')).toBe('HANDOUT.md:3: the words "core points" need one "#" where the number goes');
    expect(message('core points, in "core # points"', "")).toBe("HANDOUT.md:3: a marker with nothing below it");
    expect(message('core points, in "core # points"')).toBeNull();
  });
});
