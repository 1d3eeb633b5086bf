// Who target processes run as (sandbox/identity), without a grade: the lent ids, the folders given
// to them, the environment, the network they do not have, and the end of every process of a user,
// however it left its tree.
// The parts that need root (lending ids, ending another user's processes) run as root, as CI does.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { dir } from "tmp-promise";
import { afterAll, describe, expect, test } from "vitest";
import { build } from "esbuild";
import { execa } from "execa";
import { REPO_ROOT } from "../paths.js";
import { heldIds, idRange, LOCK_DIR, releaseIdsOf, returnId, takeId, type IdRange } from "../sandbox/identity/ids.js";
import { probeNetworkCut } from "../sandbox/identity/network.js";
import { processesOf } from "../sandbox/identity/processes.js";
import { targetEnv } from "../sandbox/identity/target-env.js";
import { chooseIdentity, UserLease, type TargetIdentity } from "../sandbox/identity/target-user.js";

const isRoot = process.platform === "linux" && process.getuid?.() === 0;
/** Ids of the test's own, apart from the default range grades use. */
const RANGE: IdRange = { first: 60980, last: 60999 };

describe("what target processes start with", () => {
  test("the environment holds PATH, HOME and LANG only, whatever the grader's holds", () => {
    const env = targetEnv("/scenario/cwd", { PATH: "/usr/bin:/home/x/.npm/bin", INIT_CWD: "/repo", npm_package_json: "/repo/package.json", PWD: "/repo", OLDPWD: "/", GITHUB_TOKEN: "secret" });
    expect(Object.keys(env).sort()).toEqual(["HOME", "LANG", "PATH"]);
    expect(env.HOME).toBe("/scenario/cwd");
    expect(env.PATH!.split(":")).toContain("/usr/bin");
    expect(env.PATH).not.toContain(".npm");
  });

  test("GRADE_SANDBOX_IDS takes a range of ids from 1000 to 65533, and names what it got when it is not one", () => {
    expect(idRange(undefined)).toEqual({ first: 60200, last: 60999 });
    expect(idRange("5000-5009")).toEqual({ first: 5000, last: 5009 });
    for (const bad of ["5009-5000", "0-10", "60000", "a-b", "60000-70000"]) expect(() => idRange(bad)).toThrow(`GRADE_SANDBOX_IDS: expected a range of ids such as 60200-60999 (from 1000 to 65533), got ${JSON.stringify(bad)}`);
  });

  test("a grade turned off with GRADE_SANDBOX_USER=off runs its targets as its own user, and says why", () => {
    const identity = chooseIdentity([], { GRADE_SANDBOX_USER: "off" });
    expect(identity).toEqual({ separate: false, why: isRoot ? "GRADE_SANDBOX_USER=off" : expect.any(String) });
  });
});

describe.runIf(isRoot)("as root: users lent to target processes", () => {
  let work: { path: string; cleanup: () => Promise<void> };
  let identity: TargetIdentity & { separate: true };
  const started: number[] = [];

  afterAll(async () => {
    releaseIdsOf(process.pid);
    for (const pid of started) spawnSync("kill", ["-9", String(pid)]);
    await work?.cleanup();
  });

  test("each lease gets an id of its own that no other holds, and a folder it owns", async () => {
    work = await dir({ unsafeCleanup: true });
    const gid = takeId(RANGE, process.pid, "group", 0)!;
    identity = { separate: true, gid, gradePid: process.pid, range: RANGE, network: { cut: false, why: "set by the network tests below" } };
    const [a, b] = [UserLease.of(identity), UserLease.of(identity)];
    expect(a.user!.uid).not.toBe(b.user!.uid);
    expect([a.user!.gid, b.user!.gid]).toEqual([gid, gid]);
    expect(heldIds().filter((h) => h.gradePid === process.pid).map((h) => h.id).sort()).toEqual([gid, a.user!.uid, b.user!.uid].sort());
    const folder = a.folder(path.join(work.path, "a", "s1"));
    fs.writeFileSync(path.join(folder, "made-by-the-grader"), "x");
    a.handOver(folder);
    expect(fs.statSync(path.join(folder, "made-by-the-grader")).uid).toBe(a.user!.uid);
    a.release();
    b.release();
    expect(heldIds().filter((h) => h.gradePid === process.pid).map((h) => h.id)).toEqual([gid]);
  });

  test("an id a process runs under is never lent, though no account has it", () => {
    const busy = RANGE.first + 5;
    const sleeper = spawn("sleep", ["30"], { uid: busy, gid: busy, stdio: "ignore" });
    started.push(sleeper.pid!);
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) ids.push(takeId(RANGE, process.pid, "user", identity.gid)!);
    expect(ids).not.toContain(busy);
    expect(ids).toHaveLength(new Set(ids).size);
    sleeper.kill("SIGKILL");
  });

  test("release ends a process that left its tree and its session (setsid, double fork), and one that forks while it is ended", async () => {
    const lease = UserLease.of(identity);
    const { uid } = lease.user!;
    spawnSync("/bin/sh", ["-c", "setsid sh -c 'sleep 60' </dev/null >/dev/null 2>&1 & setsid sh -c 'while true; do sleep 0.01; sleep 60 & done' </dev/null >/dev/null 2>&1 &"], { ...lease.spawnOptions, cwd: "/", stdio: "ignore" });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(processesOf(uid).length).toBeGreaterThanOrEqual(2);
    lease.release();
    expect(processesOf(uid)).toEqual([]);
  });

  test("the end of a scenario, run as the lent user (as a sandbox host runs it), ends every other process of the user: one in a session of its own, and a setuid program's, whose effective id is root's", async () => {
    const lease = UserLease.of(identity);
    const { uid } = lease.user!;
    const { folder, bundle, reachable } = await processesBundleFor(lease);
    // Root's copy of sleep made setuid: run by the lent user, its real id is the user's, its effective and saved ids root's.
    const setuid = path.join(folder, "setuid-sleep");
    fs.copyFileSync("/bin/sleep", setuid);
    fs.chmodSync(setuid, 0o4755);
    spawnSync("/bin/sh", ["-c", `setsid sleep 60 </dev/null >/dev/null 2>&1 & ${setuid} 60 </dev/null >/dev/null 2>&1 &`], { ...lease.spawnOptions, cwd: "/", stdio: "ignore" });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ids = processesOf(uid).map((pid) => /^Uid:\s+(\d+)\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, "latin1"))!.slice(1, 3).map(Number));
    expect(ids).toContainEqual([uid, uid]);
    expect(ids).toContainEqual([uid, 0]);
    const end = spawnSync(process.execPath, ["--input-type=module", "-e", `import { killOthersOfMyUser } from ${JSON.stringify(bundle)}; killOthersOfMyUser();`], { ...lease.spawnOptions, cwd: "/" });
    expect(end.status, String(end.stderr)).toBe(0);
    expect(processesOf(uid)).toEqual([]);
    lease.release();
    await reachable.cleanup();
  });

  test("the end of a scenario that found no process of the user left finds one made after it: a process started between two ends is ended by the second", async () => {
    const lease = UserLease.of(identity);
    const { uid } = lease.user!;
    const { bundle, reachable } = await processesBundleFor(lease);
    // As a host: an end with nothing to end, a program that leaves a process in a session of its
    // own (a daemon), then the next end; what is left of the user's once it has run is printed.
    const script = [
      `import { killOthersOfMyUser, processesOf } from ${JSON.stringify(bundle)};`,
      `import { spawnSync } from "node:child_process";`,
      `killOthersOfMyUser();`,
      `spawnSync("/bin/sh", ["-c", "setsid sleep 60 </dev/null >/dev/null 2>&1 &"], { stdio: "ignore" });`,
      `const made = processesOf(process.getuid()).filter((pid) => pid !== process.pid).length;`,
      `killOthersOfMyUser();`,
      `console.log(JSON.stringify({ made, left: processesOf(process.getuid()).filter((pid) => pid !== process.pid) }));`,
    ].join("\n");
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { ...lease.spawnOptions, cwd: "/", encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    const { made, left } = JSON.parse(run.stdout) as { made: number; left: number[] };
    expect(made).toBeGreaterThan(0);
    expect(left).toEqual([]);
    expect(processesOf(uid)).toEqual([]);
    lease.release();
    await reachable.cleanup();
  });

  test("sweep ends every process of the user but those the grader still uses", async () => {
    const lease = UserLease.of(identity);
    const keep = spawn("sleep", ["30"], { ...lease.spawnOptions, stdio: "ignore" });
    started.push(keep.pid!);
    spawnSync("/bin/sh", ["-c", "setsid sleep 60 </dev/null >/dev/null 2>&1 &"], { ...lease.spawnOptions, cwd: "/", stdio: "ignore" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    lease.sweep([keep.pid!]);
    expect(processesOf(lease.user!.uid)).toEqual([keep.pid]);
    lease.release();
    expect(processesOf(lease.user!.uid)).toEqual([]);
  });

  test("a lease given back ends nothing more and gives nothing more: its id may be another lease's by then", () => {
    const first = UserLease.of(identity);
    const { uid } = first.user!;
    first.release();
    const next = UserLease.of(identity);
    expect(next.user!.uid).toBe(uid);
    const sleeper = spawn("sleep", ["30"], { ...next.spawnOptions, stdio: "ignore" });
    started.push(sleeper.pid!);
    first.sweep();
    first.release();
    expect(processesOf(uid)).toEqual([sleeper.pid]);
    expect(() => first.handOver(work.path)).toThrow(`the user ${uid} of this lease was given back: its check has ended`);
    next.release();
    expect(processesOf(uid)).toEqual([]);
  });

  test("a lock that names no grade (empty, as one half made would be) is held: its id is neither cleared nor lent", () => {
    const id = RANGE.first + 15;
    fs.writeFileSync(path.join(LOCK_DIR, String(id)), "");
    try {
      expect(takeId({ first: id, last: id }, process.pid, "user", identity.gid)).toBeNull();
      expect(fs.existsSync(path.join(LOCK_DIR, String(id)))).toBe(true);
    } finally {
      fs.rmSync(path.join(LOCK_DIR, String(id)));
    }
  });

  test("ids taken at once by several processes are all different", async () => {
    const script = `const { takeId } = require(${JSON.stringify(path.join(work.path, "ids.cjs"))}); const got = []; for (let i = 0; i < 5; i++) got.push(takeId({ first: ${RANGE.first}, last: ${RANGE.last} }, ${process.pid}, "user", ${identity.gid})); console.log(JSON.stringify(got));`;
    await build({ entryPoints: [path.join(REPO_ROOT, "grader/sandbox/identity/ids.ts")], bundle: true, platform: "node", format: "cjs", outfile: path.join(work.path, "ids.cjs"), logLevel: "silent" });
    const runs = await Promise.all([0, 1, 2].map(() => execa(process.execPath, ["-e", script])));
    const ids = runs.flatMap((r) => JSON.parse(r.stdout) as (number | null)[]).filter((id) => id !== null);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).toHaveLength(new Set(ids).size);
    for (const id of ids) returnId(id);
  });

  test("stale locks cleared by several grades at once: each id goes to one of them, and none ends what another started under its id", async () => {
    const stale = { first: 60960, last: 60968 };
    const gone = spawnSync("true").pid!;
    for (let id = stale.first; id <= stale.last; id++) fs.writeFileSync(path.join(LOCK_DIR, String(id)), `${gone} user\n`);
    const bundle = path.join(work.path, "ids-stale.cjs");
    await build({ entryPoints: [path.join(REPO_ROOT, "grader/sandbox/identity/ids.ts")], bundle: true, platform: "node", format: "cjs", outfile: bundle, logLevel: "silent" });
    // Each process takes two ids and starts a process under each at once, then waits while the others clear theirs.
    const script = `const { takeId } = require(${JSON.stringify(bundle)}); const { spawnSync } = require("node:child_process");
      const got = [];
      for (let i = 0; i < 2; i++) {
        const id = takeId(${JSON.stringify(stale)}, process.pid, "user", ${identity.gid});
        if (id === null) continue;
        const pid = Number(spawnSync("/bin/sh", ["-c", "setsid sleep 60 </dev/null >/dev/null 2>&1 & echo $!"], { uid: id, gid: ${identity.gid}, cwd: "/", encoding: "utf8" }).stdout.trim());
        got.push({ id, pid });
      }
      setTimeout(() => console.log(JSON.stringify(got.map((g) => ({ ...g, alive: (() => { try { process.kill(g.pid, 0); return true; } catch { return false; } })() })))), 1500);`;
    const runs = await Promise.all([0, 1, 2].map(() => execa(process.execPath, ["-e", script])));
    const got = runs.flatMap((r) => JSON.parse(r.stdout) as { id: number; pid: number; alive: boolean }[]);
    started.push(...got.map((g) => g.pid));
    const ids = got.map((g) => g.id);
    // A grade that finds an id being cleared by another goes on to the next: most get both.
    expect(ids.length).toBeGreaterThanOrEqual(4);
    expect(ids).toHaveLength(new Set(ids).size);
    expect(got.filter((g) => !g.alive)).toEqual([]);
    for (let id = stale.first; id <= stale.last; id++) returnId(id);
  });

  test("the ids of a grade that is gone are lent again, and what ran under them is ended first", async () => {
    const gone = spawnSync("true").pid!; // a process id that no longer runs
    const uid = takeId(RANGE, gone, "user", identity.gid)!;
    spawnSync("/bin/sh", ["-c", "setsid sleep 60 </dev/null >/dev/null 2>&1 &"], { uid, gid: identity.gid, cwd: "/", stdio: "ignore" });
    expect(processesOf(uid)).toHaveLength(1);
    const again = takeId({ first: uid, last: uid }, process.pid, "user", identity.gid);
    expect(again).toBe(uid);
    expect(processesOf(uid)).toEqual([]);
  });
});

/** Starts `command` as the lease starts target code; resolves with its pid and what it printed. */
/** grader/sandbox/identity/processes.ts bundled into a folder of the lent user's own, which it can reach (the others' parent is the grader's alone): a host's code, to run as that user. */
async function processesBundleFor(lease: UserLease): Promise<{ folder: string; bundle: string; reachable: { cleanup: () => Promise<void> } }> {
  const reachable = await dir({ unsafeCleanup: true });
  fs.chmodSync(reachable.path, 0o711);
  const folder = lease.folder(path.join(reachable.path, "processes"));
  const bundle = path.join(folder, "processes.mjs");
  await build({ entryPoints: [path.join(REPO_ROOT, "grader/sandbox/identity/processes.ts")], bundle: true, format: "esm", platform: "node", outfile: bundle, logLevel: "silent" });
  return { folder, bundle, reachable };
}

function startAs(lease: UserLease, file: string, args: string[]): Promise<{ pid: number; stdout: string }> {
  const command = lease.spawn({ file, args });
  const child = spawn(command.file, command.args, { ...command.options, cwd: "/", env: {}, stdio: ["ignore", "pipe", "inherit"] });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
  return new Promise((resolve) => child.on("close", () => resolve({ pid: child.pid!, stdout })));
}

/** Prints, as JSON, who it runs as, its network namespace and interfaces, and how a connection to 127.0.0.1:argv[1] ended. */
const NETWORK_PROBE = `
const fs = require("node:fs"), os = require("node:os");
const seen = { pid: process.pid, uid: process.getuid(), gid: process.getgid(), groups: process.getgroups(), ns: fs.readlinkSync("/proc/self/ns/net"),
  devices: fs.readFileSync("/proc/net/dev", "utf8").split("\\n").slice(2).map((l) => l.split(":")[0].trim()).filter(Boolean), addresses: os.networkInterfaces() };
require("node:net").connect(Number(process.argv[1]), "127.0.0.1").on("connect", () => { console.log(JSON.stringify({ ...seen, connected: "yes" })); process.exit(0); })
  .on("error", (e) => console.log(JSON.stringify({ ...seen, connected: e.code })));
`;

/** Active network namespaces, made and not yet freed, as the kernel's slab counts them. */
function namespacesInMemory(): number {
  return Number(/^net_namespace\s+(\d+)/m.exec(fs.readFileSync("/proc/slabinfo", "utf8"))?.[1]);
}

describe.runIf(isRoot)("as root: target processes without the network", () => {
  let gid: number;
  let network: ReturnType<typeof probeNetworkCut>;
  let lease: UserLease;

  afterAll(() => {
    lease?.release();
    releaseIdsOf(process.pid);
  });

  test("a namespace can be made here: the probe says so and names the unshare it ran", () => {
    gid = takeId(RANGE, process.pid, "group", 0)!;
    const probe = UserLease.of({ separate: true, gid, gradePid: process.pid, range: RANGE, network: { cut: false, why: "probing" } });
    network = probeNetworkCut(probe.user!);
    probe.release();
    expect(network).toEqual({ cut: true, unshare: expect.stringMatching(/^\/(usr\/)?bin\/unshare$/) });
  });

  test("a target process starts as its user, with no supplementary group, keeping its pid, in a namespace of its own whose only device is a loopback without an address: 127.0.0.1 is unreachable and a listener there sees nothing", async () => {
    lease = UserLease.of({ separate: true, gid, gradePid: process.pid, range: RANGE, network });
    const connections: net.Socket[] = [];
    const server = net.createServer((socket) => connections.push(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const port = (server.address() as net.AddressInfo).port;
      const run = await startAs(lease, process.execPath, ["-e", NETWORK_PROBE, String(port)]);
      const seen = JSON.parse(run.stdout) as Record<string, unknown>;
      expect(seen).toEqual({ pid: run.pid, uid: lease.user!.uid, gid, groups: [gid], ns: expect.stringMatching(/^net:\[\d+\]$/), devices: ["lo"], addresses: {}, connected: "ENETUNREACH" });
      expect(seen.ns).not.toBe(fs.readlinkSync("/proc/self/ns/net"));
      expect(connections).toEqual([]);
    } finally {
      server.close();
    }
  });

  test("two target processes of one lease are in two namespaces", async () => {
    // Both alive at once: a namespace freed when its process ends may give its number to the next one.
    const ns = async () => (await startAs(lease, "/bin/sh", ["-c", "readlink /proc/self/ns/net; sleep 1"])).stdout.trim();
    const [a, b] = await Promise.all([ns(), ns()]);
    expect(a).toMatch(/^net:\[\d+\]$/);
    expect(a).not.toBe(b);
  });

  test("400 target processes in a row leave no namespace behind: the kernel frees each one after its process", async () => {
    const before = namespacesInMemory();
    for (let i = 0; i < 400; i++) await startAs(lease, "/bin/true", []);
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // freeing runs in a kernel worker, a moment after the exit
    // The slab holds a few dozen between uses: 400 kept would show.
    expect(namespacesInMemory() - before).toBeLessThan(100);
  });

  test("where no namespace may be made (root without CAP_SYS_ADMIN, as in a container), the probe says why", async () => {
    const work = await dir({ unsafeCleanup: true });
    try {
      const bundle = path.join(work.path, "network.cjs");
      await build({ entryPoints: [path.join(REPO_ROOT, "grader/sandbox/identity/network.ts")], bundle: true, platform: "node", format: "cjs", outfile: bundle, logLevel: "silent" });
      const script = `console.log(JSON.stringify(require(${JSON.stringify(bundle)}).probeNetworkCut(${JSON.stringify(lease.user)})))`;
      const run = await execa("setpriv", ["--bounding-set=-sys_admin", "--", process.execPath, "-e", script]);
      expect(JSON.parse(run.stdout)).toEqual({ cut: false, why: "no network namespace could be made (unshare --net: Operation not permitted)" });
    } finally {
      await work.cleanup();
    }
  });
});
