// GRADE_CPU_PROFILE=<folder> and GRADE_CPU_CAUSES=<folder>, the developer's views of where a
// grade's time goes: a sandbox host started under one writes a V8 CPU profile there when the
// grader closes it, under the other its processor time by cause.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { expect, test } from "vitest";
import { openEngine, statesPerSecond } from "../tools/bench/engine.js";
import { profileOfFolder } from "../tools/bench/cpu-causes.js";

/** Runs a sandbox host through 200 crash states with `variable` naming a folder, closes it, and hands the folder to `look`. */
async function closedHostUnder(variable: string, look: (folder: string) => void): Promise<void> {
  const scratch = await dir({ unsafeCleanup: true, prefix: "cpu-profile-" });
  const folder = path.join(scratch.path, "written");
  fs.mkdirSync(folder);
  fs.chmodSync(folder, 0o777);
  process.env[variable] = folder;
  try {
    // Each crash state recovered on its own: the profile samples a call only while it runs, and shared recoveries run few.
    const box = await openEngine(path.join(scratch.path, "work"), { shareRecoveries: false });
    try {
      await statesPerSecond(box, { a: 1 }, { a: 2 }, 200);
    } finally {
      await box.close();
    }
    look(folder);
  } finally {
    delete process.env[variable];
    await scratch.cleanup();
  }
}

test("with GRADE_CPU_PROFILE set, a closed sandbox host leaves a CPU profile with the target's calls in it", async () => {
  await closedHostUnder("GRADE_CPU_PROFILE", (profiles) => {
    const written = fs.readdirSync(profiles).filter((f) => f.endsWith(".cpuprofile"));
    expect(written.length).toBeGreaterThan(0);
    const functions = written.flatMap((f) => (JSON.parse(fs.readFileSync(path.join(profiles, f), "utf8")) as { nodes: { callFrame: { functionName: string } }[] }).nodes.map((n) => n.callFrame.functionName));
    expect(functions).toContain("loadCheckpoint");
  });
});

test("with GRADE_CPU_CAUSES set, a closed sandbox host leaves a record with its start, its rebuilt disks, the target's code and each scenario's end each charged", async () => {
  await closedHostUnder("GRADE_CPU_CAUSES", (records) => {
    const profile = profileOfFolder(records);
    expect(profile.processes.host).toBeGreaterThan(0);
    const charged = new Map(profile.lines.map((l) => [l.id, l.seconds]));
    for (const id of ["host.start", "host.rebuild", "host.target", "host.close"]) expect(charged.get(id), id).toBeGreaterThan(0);
    // This test's process wrote no grade record: there is no total to leave anything out of.
    expect(profile.totalSeconds).toBeNull();
  });
});
