// A grade's processor time by cause (tools/bench/cpu-causes.ts), added up from its processes'
// records: each cause summed over the processes of its role, the programs counted from the
// processes that ran them, and what no record holds as the rest of the grade process's total.
import { expect, test } from "vitest";
import { causeProfile, causeProfileLines } from "../tools/bench/cpu-causes.js";
import type { CpuRecord } from "../sandbox/messages/cpu-causes.js";

const RECORDS: CpuRecord[] = [
  // The grade process waited for everything below it: 9,000 ms.
  { role: "grade", causesMs: { start: 400, compile: 100, own: 500 }, endedChildrenMs: 9_000 },
  // A worker's children are the hosts, each counted by its own record.
  { role: "worker", causesMs: { start: 600, own: 900 }, endedChildrenMs: 7_000 },
  { role: "host", causesMs: { start: 150, rebuild: 50, target: 1_000, spawn: 300, own: 200 }, endedChildrenMs: 2_000 },
  { role: "host", causesMs: { start: 150, rebuild: 70, target: 500, close: 80 }, endedChildrenMs: 0 },
  { role: "process", causesMs: { own: 400 }, endedChildrenMs: null },
];

test("each cause is summed over the processes of its role, in seconds, and a line with no time is left out", () => {
  const seconds = new Map(causeProfile(RECORDS).lines.map((l) => [l.id, l.seconds]));
  expect(seconds.get("host.start")).toBeCloseTo(0.3);
  expect(seconds.get("host.rebuild")).toBeCloseTo(0.12);
  expect(seconds.get("host.target")).toBeCloseTo(1.5);
  expect(seconds.get("worker.start")).toBeCloseTo(0.6);
  expect(seconds.has("worker.compile")).toBe(false);
  expect(seconds.has("actor.own")).toBe(false);
});

test("programs are the ended children of hosts, real processes and actors, never of the grade process or a worker", () => {
  const seconds = new Map(causeProfile(RECORDS).lines.map((l) => [l.id, l.seconds]));
  expect(seconds.get("host.programs")).toBeCloseTo(2);
  expect(seconds.has("process.programs")).toBe(false);
  expect([...seconds.keys()].filter((id) => id.startsWith("grade.programs") || id.startsWith("worker.programs"))).toEqual([]);
});

test("the total is the grade process's own time and its descendants', and what no record holds is the rest of it", () => {
  const profile = causeProfile(RECORDS);
  expect(profile.totalSeconds).toBeCloseTo(10);
  // Records: 1,000 + 1,500 + 1,700 + 800 + 400 = 5,400 ms of their own, and 2,000 ms of programs.
  expect(profile.lines.find((l) => l.id === "unattributed")?.seconds).toBeCloseTo(2.6);
  expect(profile.processes).toEqual({ grade: 1, worker: 1, host: 2, process: 1 });
});

test("a cause its role does not name is counted as that role's own time", () => {
  const profile = causeProfile([{ role: "worker", causesMs: { rebuild: 250, own: 250 }, endedChildrenMs: 0 }]);
  expect(profile.lines).toEqual([{ id: "worker.own", label: expect.any(String), seconds: 0.5 }]);
});

test("the printed profile names how many processes of each role wrote, and each cause's share of the total", () => {
  const lines = causeProfileLines(causeProfile(RECORDS));
  expect(lines[0]).toBe("processor time by cause, from the records of 1 grade process, 1 worker, 2 sandbox hosts, 1 real process:");
  expect(lines.find((l) => l.includes("rebuilding each crash state's disk"))).toMatch(/0\.12 s +1\.2%$/);
  expect(lines.at(-1)).toMatch(/^ {2}every process of the grade +10\.00 s$/);
});
