// The suite's projects (vitest.config.ts): the `grader` project's files run two at a time, so a
// test there may start no Node process, terminal or browser, and one that does fails saying
// where it belongs. This file runs in that project.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { expect, test } from "vitest";

test("a test of the grader project that starts Node, a terminal or a browser fails with the list it belongs in; a small program still runs", () => {
  expect(() => spawnSync(process.execPath, ["-e", "0"])).toThrow(/runs in the `machine` project: add its file to MACHINE in vitest.config.ts/);
  expect(() => spawn("script", ["-qec", "true", "/dev/null"])).toThrow(/started script \(spawn\)/);
  expect(() => execFileSync("/usr/bin/chromium-headless-shell", ["--version"])).toThrow(/started chromium-headless-shell/);
  expect(execFileSync("true", [], { encoding: "utf8" })).toBe("");
});
