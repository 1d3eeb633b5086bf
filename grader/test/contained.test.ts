// Submitted code reaches nothing but its own scenario (grader/fixtures/contained). As root (CI,
// Gradescope, a container), it runs as users of its own with a minimal environment and no
// network: a submission that hunts for the reference solution finds none, one that writes into
// the grader changes nothing, one that leaves processes behind has them ended between scenarios
// and at the end, and one that phones home reaches no listener.
// Not as root (a student's laptop), it runs as the grader's user, and the report says so; the test
// checks that as root too, grading as `nobody`.
import { transformSync } from "esbuild";
import { execa } from "execa";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { dir } from "tmp-promise";
import { beforeAll, describe, expect, test } from "vitest";
import { REPO_ROOT, SOLUTION_DIR } from "../paths.js";
import type { Report } from "../report/report.js";
import { strayProcesses } from "../sandbox/identity/ids.js";
import { checkOf, comparable, composeTarget, grade, notPassed, notPassedWhy, prose } from "./support/grade.js";
import { parseCsv } from "./support/batch.js";

const CONTAINED = path.join(REPO_ROOT, "grader/fixtures/contained");
const isRoot = process.platform === "linux" && process.getuid?.() === 0;

/** Lines of the reference solution long enough to be its own (not `}` or an import every file has), minus `own`'s. */
function referenceLines(own: string[]): string[] {
  const ownLines = new Set(own.flatMap((file) => fs.readFileSync(file, "utf8").split("\n").map((l) => l.trim())));
  return fs.readdirSync(SOLUTION_DIR).filter((f) => f.endsWith(".ts")).flatMap((f) => fs.readFileSync(path.join(SOLUTION_DIR, f), "utf8").split("\n"))
    .map((l) => l.trim()).filter((l) => l.length >= 12 && !ownLines.has(l));
}

/** A digest of every file of the grader's tree that a grade must leave as it was. */
function graderDigest(): string {
  const hash = createHash("sha256");
  const walk = (rel: string) => {
    const full = path.join(REPO_ROOT, rel);
    const stat = fs.lstatSync(full);
    if (stat.isDirectory()) for (const name of fs.readdirSync(full).sort()) walk(path.join(rel, name));
    else hash.update(`${rel}\0`).update(fs.readFileSync(full));
  };
  for (const top of ["grader", "lab", "solution", "starter", "gradescope", "classroom50", "package.json", "package-lock.json"]) walk(top);
  return hash.digest("hex");
}

/** Files whose names hold CONTAINED-MARKER anywhere in the repository (the .git folder aside). */
function markers(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === ".git" || entry.name === "node_modules") continue;
      if (entry.name.includes("CONTAINED-MARKER")) found.push(path.relative(REPO_ROOT, path.join(dir, entry.name)));
      else if (entry.isDirectory()) walk(path.join(dir, entry.name));
    }
  };
  walk(REPO_ROOT);
  return found;
}

/** A target whose loadCheckpoint throws who it runs as and what its environment holds. */
async function identityProbe(): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const target = await composeTarget();
  fs.writeFileSync(path.join(target.path, "checkpoint.ts"), [
    "export function atomicCheckpoint(path: string, state: unknown): void {}",
    "export function loadCheckpoint(path: string): unknown {",
    "  throw new Error(`uid=${process.getuid!()} env=${Object.keys(process.env).sort().join(',')} home=${process.env.HOME}`);",
    "}",
  ].join("\n"));
  return target;
}

function probeSaw(report: Report): string {
  return report.deliverables[0]!.checks.find((c) => c.id === "phase1.absent")!.message ?? "";
}

/** A listener on 127.0.0.1 that counts the connections made to it and the bytes sent. */
async function listener(): Promise<{ port: number; seen: () => { connections: number; bytes: number }; close: () => void }> {
  let connections = 0;
  let bytes = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.on("data", (chunk) => (bytes += chunk.length)).on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as net.AddressInfo).port, seen: () => ({ connections, bytes }), close: () => server.close() };
}

/** A target whose loadCheckpoint throws how a connection to 127.0.0.1:`port`, made by a program it runs, ended. */
async function connectProbe(port: number): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const target = await composeTarget();
  const connect = `const s = require("node:net").connect(${port}, "127.0.0.1"); s.on("connect", () => { console.log("connected"); process.exit(0); }); s.on("error", (e) => console.log(e.code));`;
  fs.writeFileSync(path.join(target.path, "checkpoint.ts"), [
    'import { execFileSync } from "node:child_process";',
    "export function atomicCheckpoint(path: string, state: unknown): void {}",
    "export function loadCheckpoint(path: string): unknown {",
    `  throw new Error("connect: " + execFileSync(process.execPath, ["-e", ${JSON.stringify(connect)}], { encoding: "utf8" }).trim());`,
    "}",
  ].join("\n"));
  return target;
}

/** Every .ts file under `dir`, fixtures and node_modules left out. */
function sourcesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "fixtures" || entry.name === "node_modules" ? [] : sourcesUnder(full);
    return entry.name.endsWith(".ts") ? [fs.readFileSync(full, "utf8")] : [];
  });
}

/**
 * Lines of the reference solution that a submission made of `targetDir`'s files cannot hold
 * itself, as written and as compiled (a bundle holds the compiled form): none of the target's own
 * lines, and none of the grader's or the lab's (a bundle holds the lab, a stand-in or the
 * sandbox's runtime), so a line found is the reference's and nothing else's.
 */
function referenceOnlyLines(targetDir: string): string[] {
  const ts = (dir: string) => fs.readdirSync(dir).filter((f) => f.endsWith(".ts")).map((f) => fs.readFileSync(path.join(dir, f), "utf8"));
  const compiled = (source: string) => {
    try {
      return transformSync(source, { loader: "ts", format: "cjs", platform: "node" }).code;
    } catch {
      return "";
    }
  };
  // A line of three names or more: "loadCheckpoint" alone, or an export list's "loadCheckpoint: () => loadCheckpoint", is any checkpoint's.
  const lines = (texts: string[]) => texts.flatMap((text) => [text, compiled(text)]).flatMap((t) => t.split("\n")).map((l) => l.trim()).filter((l) => l.length >= 12 && new Set(l.match(/[A-Za-z_$][\w$]*/g)).size >= 3);
  const elsewhere = new Set(lines([...ts(targetDir), ...sourcesUnder(path.join(REPO_ROOT, "grader")), ...sourcesUnder(path.join(REPO_ROOT, "lab"))]));
  return [...new Set(lines(ts(SOLUTION_DIR)))].filter((line) => !elsewhere.has(line));
}

/** What phones-home wrote to /tmp, one finding a line: where it read it, and what. */
interface Finding {
  source: "own bundle" | "proc" | "grader folders";
  where: string;
  text: string;
}

const PHONES_HOME_LOOT = "checkpoint-contained-phones-home-";

function phonesHomeFindings(): Finding[] {
  return fs.readdirSync("/tmp").filter((n) => n.startsWith(PHONES_HOME_LOOT)).flatMap((n) => fs.readFileSync(path.join("/tmp", n), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Finding));
}

function removePhonesHomeFindings(): void {
  for (const name of fs.readdirSync("/tmp").filter((n) => n.startsWith(PHONES_HOME_LOOT))) fs.rmSync(path.join("/tmp", name), { force: true });
}

describe.runIf(isRoot)("as root, submitted code runs as a user of its own", () => {
  test("its processes run under a lent user id with only HOME, LANG, PATH and TMPDIR, HOME in its scenario, and the report says so", async () => {
    const target = await identityProbe();
    try {
      const run = await grade(target.path, ["--only", "phase1.absent"]);
      const saw = probeSaw(run.report!);
      const uid = Number(/uid=(\d+)/.exec(saw)?.[1]);
      expect(uid).toBeGreaterThanOrEqual(60200);
      expect(uid).toBeLessThanOrEqual(60999);
      expect(saw).toContain("env=HOME,LANG,PATH,TMPDIR home=<scenario>/cwd");
      expect(run.report!.targetUser).toEqual({ separate: true, root: true, network: false });
      expect(run.stdout).not.toContain("Note: the submitted code ran as the grader's own user");
    } finally {
      await target.cleanup();
    }
  });

  test("with GRADE_SANDBOX_USER=off it runs as root, the report records why, and the grade says so once", async () => {
    const target = await identityProbe();
    try {
      const run = await grade(target.path, ["--only", "phase1.absent"], REPO_ROOT, { GRADE_SANDBOX_USER: "off" });
      expect(probeSaw(run.report!)).toContain("uid=0 ");
      expect(run.report!.targetUser).toEqual({ separate: false, root: true, network: true, why: "GRADE_SANDBOX_USER=off" });
      expect(prose(run.stdout).split("Note: the submitted code ran as the grader's own user (GRADE_SANDBOX_USER=off)").length).toBe(2);
    } finally {
      await target.cleanup();
    }
  });

  test("the solution earns the same report with a user of its own as with the grader's, twice over", async () => {
    const args = ["--target", "solution", "--only", "phase1", "--only", "phase3"];
    const [own, again, shared] = [await grade(null, args), await grade(null, args), await grade(null, args, REPO_ROOT, { GRADE_SANDBOX_USER: "off" })];
    const same = (r: Report) => comparable({ ...r, targetUser: undefined });
    expect(own.report!.score).toBe(own.report!.maxScore);
    expect(comparable(own.report!)).toEqual(comparable(again.report!));
    expect(same(own.report!)).toEqual(same(shared.report!));
  });

  test("buggy fixtures that run programs, git and real processes lose the same checks with users of their own as with the grader's", async () => {
    // One check each that they pass and one they fail, where their programs, git and sessions run.
    const fixtures = [["phase1/cp-command", "phase1"], ["phase3/replays-steps", "phase3.after-completion,phase3.three-sessions"], ["stretch-git/stale-lock", "stretch-git.commits,stretch-git.killed-in-commit"]] as const;
    for (const [fixture, deliverable] of fixtures) {
      const target = await composeTarget(path.join(REPO_ROOT, "grader/fixtures", fixture));
      try {
        // Side by side: a grade of one deliverable leaves a processor idle part of its time.
        const [own, shared] = await Promise.all([grade(target.path, ["--only", deliverable]), grade(target.path, ["--only", deliverable], REPO_ROOT, { GRADE_SANDBOX_USER: "off" })]);
        const expected = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "grader/fixtures", fixture, "fixture.json"), "utf8")) as { fails: string[] }).fails.filter((id) => deliverable.split(",").some((d) => id === d || id.startsWith(`${d}.`)));
        expect(notPassed(own.report!)).toEqual([...expected].sort());
        expect(notPassed(shared.report!)).toEqual([...expected].sort());
        expect(own.report!.score).toBe(shared.report!.score);
      } finally {
        await target.cleanup();
      }
    }
  });

  test("reads-reference finds no copy of the reference: it earns every point, and no line of solution/ is in the output, the JSON report or any platform format", async () => {
    const target = await composeTarget(path.join(CONTAINED, "reads-reference"));
    const out = await dir({ unsafeCleanup: true });
    try {
      const files = ["gradescope", "classroom50", "markdown", "junit"].map((f) => [`--${f}`, path.join(out.path, f)]);
      const runner = { CLASSROOM: "c", ASSIGNMENT: "a", SUBMISSION_TAG: "submit/1", COMMIT_URL: "https://example.invalid/c", RELEASE_URL: "https://example.invalid/r", OWNER: "o" };
      // Phase 2 runs beside it, with bundles that hold the reference's checkpoint.ts.
      const run = await grade(target.path, ["--only", "phase1.absent", "--only", "phase1.killed-process", "--only", "phase2.complete-run", ...files.flat()], REPO_ROOT, runner);
      expect(notPassedWhy(run.report!)).toEqual({});
      const texts = [run.stdout, run.stderr, JSON.stringify(run.report), ...files.map(([, file]) => fs.readFileSync(file!, "utf8"))];
      const leaked = referenceLines([path.join(CONTAINED, "reads-reference/checkpoint.ts")]).filter((line) => texts.some((t) => t.includes(line)));
      expect(leaked).toEqual([]);
    } finally {
      await Promise.all([target.cleanup(), out.cleanup()]);
    }
  });

  test("writes-grader changes nothing: the grader's tree, .grade/ and a Gradescope results.json stay as they were, and the next grade-batch row is graded by an untouched grader", async () => {
    // A Gradescope layout where a submission could find it: /tmp/<folder>/autograder/results/results.json.
    const gradescope = fs.mkdtempSync(path.join(os.tmpdir(), "contained-gradescope-"));
    const tmp = await dir({ unsafeCleanup: true });
    try {
      fs.chmodSync(gradescope, 0o755);
      const results = path.join(gradescope, "autograder/results/results.json");
      fs.mkdirSync(path.dirname(results), { recursive: true, mode: 0o755 });
      fs.writeFileSync(results, '{"score": 0}\n');
      const before = graderDigest();
      const subs = path.join(tmp.path, "class");
      fs.mkdirSync(subs);
      for (const [name, overlay] of [["a-writes-grader", path.join(CONTAINED, "writes-grader")], ["b-correct", undefined]] as const) {
        const target = await composeTarget(overlay);
        fs.cpSync(target.path, path.join(subs, name), { recursive: true });
        await target.cleanup();
      }
      const batch = await execa("npm", ["run", "--silent", "grade-batch", "--", subs, "--out", path.join(tmp.path, "grades.csv"), "--jobs", "1", "--only", "phase1"], { cwd: REPO_ROOT, reject: false, env: { NO_COLOR: "1" } });
      expect(batch.exitCode).toBe(0);
      const [, tamperer, correct] = parseCsv(fs.readFileSync(path.join(tmp.path, "grades.csv"), "utf8"));
      expect(tamperer!.slice(0, 3)).toEqual(["a-writes-grader", "graded", "35"]);
      expect(correct!.slice(0, 3)).toEqual(["b-correct", "graded", "35"]);
      expect(graderDigest()).toBe(before);
      expect(markers()).toEqual([]);
      expect(fs.readFileSync(results, "utf8")).toBe('{"score": 0}\n');
    } finally {
      fs.rmSync(gradescope, { recursive: true, force: true });
      await tmp.cleanup();
    }
  });

  describe("phones-home, graded on phase1 and phase2 with a listener on 127.0.0.1", () => {
    let graded: { report: Report; stdout: string; stderr: string; port: number; seen: { connections: number; bytes: number }; findings: Finding[]; secrets: string[]; target: string } | undefined;
    /**
     * Whether the grade answers for where a finding was read: /proc, the grader's repository, the
     * grade's scratch folders, the target. A copy of the reference that every user may read
     * elsewhere on the machine (another checkout in /tmp) is the instructor's to close (README,
     * "What submitted code can reach"), and on a shared machine there may be one.
     */
    const answeredFor = (where: string) => ["/proc/", REPO_ROOT + path.sep, graded!.target + path.sep].some((place) => where.startsWith(place)) || /\/checkpoint-grade-[^/]+\//.test(where);
    /** The findings of `source` that hold a line of the reference, where the grade answers for them, with the lines. */
    const leaked = (source: Finding["source"]) => graded!.findings.filter((f) => f.source === source && answeredFor(f.where)).flatMap((f) => {
      const lines = graded!.secrets.filter((line) => f.text.includes(line));
      return lines.length > 0 ? [`${f.where}: ${lines.slice(0, 3).join(" | ")}`] : [];
    });

    beforeAll(async () => {
      const target = await composeTarget(path.join(CONTAINED, "phones-home"));
      const listening = await listener();
      removePhonesHomeFindings(); // an earlier run's
      try {
        // The grade gives the code no environment to read the port from: it is written into its copy.
        const snoop = path.join(target.path, "snoop.ts");
        fs.writeFileSync(snoop, fs.readFileSync(snoop, "utf8").replace(/^const PORT = 0;$/m, `const PORT = ${listening.port};`));
        // Each of its processes runs a hunt that takes seconds beside a busy grade: the calls get 30 s, the hunt 20.
        const rubric = path.join(target.path, "rubric.json");
        fs.writeFileSync(rubric, JSON.stringify({ ...JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "grader/rubric.json"), "utf8")), limits: { callMs: 30_000 } }));
        const run = await grade(target.path, ["--only", "phase1", "--only", "phase2", "--rubric", rubric]);
        graded = { report: run.report!, stdout: run.stdout, stderr: run.stderr, port: listening.port, seen: listening.seen(), findings: phonesHomeFindings(), secrets: referenceOnlyLines(target.path), target: target.path };
      } finally {
        listening.close();
        removePhonesHomeFindings();
        await target.cleanup();
      }
    }, 600_000);

    test("its connection fails: phase1.absent alone loses its points, with a story that names the error, and the listener sees nothing", () => {
      const { report, port, seen } = graded!;
      expect(notPassedWhy(report)).toEqual({
        "phase1.absent": `Called loadCheckpoint on a path in an empty folder, where nothing was ever written.\nloadCheckpoint threw Error: could not send what it found to 127.0.0.1:${port}: ENETUNREACH (at loadCheckpoint (checkpoint.ts:31:37)); expected null`,
      });
      const absent = checkOf(report, "phase1.absent")!;
      expect(absent.points).toBe(0);
      expect(report.score).toBe(report.maxScore - absent.maxPoints);
      expect(report.targetUser).toEqual({ separate: true, root: true, network: false });
      expect(seen).toEqual({ connections: 0, bytes: 0 });
    });

    test("it looked where it should: its own bundles (one of phase 2 that runs its runner.ts beside another checkpoint.ts), the grader's command line in /proc, a sibling host's", () => {
      const { findings } = graded!;
      expect(findings.filter((f) => f.source === "own bundle" && /\/bundles\/checkpoint[\w-]*\.cjs$/.test(f.where)).length).toBeGreaterThan(0);
      expect(findings.filter((f) => f.source === "own bundle" && /\/bundles\/runner[\w-]*\.cjs$/.test(f.where)).length).toBeGreaterThan(0);
      expect(findings.some((f) => f.source === "proc" && f.where.endsWith("/cmdline") && f.text.includes("launch.mjs"))).toBe(true);
      expect(findings.filter((f) => f.source === "proc" && f.where.endsWith("/cmdline") && f.text.includes("--serve")).length).toBeGreaterThan(1);
    });

    test("nothing it read in /proc, the grader's folders, the grade's scratch folders or the target, and nothing the grade printed or reported, holds a line of the reference", () => {
      const { report, stdout, stderr, secrets } = graded!;
      expect(secrets.length).toBeGreaterThan(20);
      expect(leaked("proc")).toEqual([]);
      expect(leaked("grader folders")).toEqual([]);
      const texts = [stdout, stderr, JSON.stringify(report)];
      expect(secrets.filter((line) => texts.some((t) => t.includes(line)))).toEqual([]);
    });

    test("its own bundles hold no line of the reference, the variants that run its runner.ts without its checkpoint.ts included", () => {
      expect(leaked("own bundle")).toEqual([]);
    });
  });

  test("where no network namespace can be made (root without CAP_SYS_ADMIN), the grade still runs, says once that the code could use the network, and records why", async () => {
    const listening = await listener();
    const target = await connectProbe(listening.port);
    const json = path.join(target.path, "report.json");
    try {
      const run = await execa("setpriv", ["--bounding-set=-sys_admin", "--", process.execPath, path.join(REPO_ROOT, "grader/cli/launch.mjs"), "--target", target.path, "--only", "phase1.absent", "--no-cache", "--json", json], { cwd: REPO_ROOT, reject: false, env: { NO_COLOR: "1" } });
      const report = JSON.parse(fs.readFileSync(json, "utf8")) as Report;
      const why = "no network namespace could be made (unshare --net: Operation not permitted)";
      expect(report.targetUser).toEqual({ separate: true, root: true, network: true, networkWhy: why });
      expect(prose(run.stdout).split(`Note: the submitted code could use the network: ${why}.`).length).toBe(2);
      expect(probeSaw(report)).toContain("connect: connected");
      expect(listening.seen().connections).toBe(1);
    } finally {
      listening.close();
      await target.cleanup();
    }
  });

  test("leaves-daemon has each process it leaves ended before the next scenario, and none alive or writing after the grade", async () => {
    const target = await composeTarget(path.join(CONTAINED, "leaves-daemon"));
    const written = () => fs.readdirSync("/tmp").filter((n) => n.startsWith("checkpoint-contained-daemon-"));
    for (const name of written()) fs.rmSync(path.join("/tmp", name)); // an earlier run's, not this grade's
    try {
      const run = await grade(target.path, ["--only", "phase1", "--only", "concurrency.two-writers"]);
      expect(notPassedWhy(run.report!)).toEqual({});
      expect(strayProcesses()).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 7_000)); // each would have written 6 s after it started
      expect(written()).toEqual([]);
    } finally {
      await target.cleanup();
    }
  });
});

// On a student's laptop the grader is an ordinary user. Run as root (CI), the test makes itself
// one: a copy of the repository that belongs to `nobody`, graded by `nobody`.
test("a grade run by an ordinary user runs the code as that user, records it in the report without a note, and scores as any other grade", async () => {
  const probe = await identityProbe();
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "contained-ordinary-"));
  try {
    const user = isRoot ? { uid: 65534, gid: 65534 } : { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
    const repo = isRoot ? path.join(home, "repo") : REPO_ROOT;
    if (isRoot) {
      fs.chmodSync(home, 0o755);
      fs.cpSync(REPO_ROOT, repo, { recursive: true, verbatimSymlinks: true, filter: (from) => !/[\\/](\.git|\.grade)$/.test(from) });
      fs.cpSync(probe.path, path.join(home, "probe"), { recursive: true });
      spawnSync("chown", ["-R", `${user.uid}:${user.gid}`, home]);
    }
    const gradeAsUser = async (target: string, only: string) => {
      const json = path.join(home, `${only}.json`);
      const run = await execa(process.execPath, [path.join(repo, "grader/cli/launch.mjs"), "--target", target, "--only", only, "--json", json], {
        cwd: repo, reject: false, env: { HOME: home, NO_COLOR: "1" }, extendEnv: false, ...(isRoot ? user : {}),
      });
      return { stdout: run.stdout, stderr: run.stderr, report: JSON.parse(fs.readFileSync(json, "utf8")) as Report };
    };
    const probed = await gradeAsUser(isRoot ? path.join(home, "probe") : probe.path, "phase1.absent");
    expect(probeSaw(probed.report)).toContain(`uid=${user.uid} `);
    expect(probed.report.targetUser).toEqual({ separate: false, root: false, network: true, why: "the grader does not run as root" });
    const solution = await gradeAsUser("solution", "phase1");
    expect(solution.stderr).toBe("");
    expect(solution.stdout).not.toContain("Note: the submitted code ran");
    const usual = await grade(null, ["--target", "solution", "--only", "phase1"]);
    const same = (r: Report) => comparable({ ...r, targetUser: undefined });
    expect(same(solution.report)).toEqual(same(usual.report!));
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
    await probe.cleanup();
  }
});
