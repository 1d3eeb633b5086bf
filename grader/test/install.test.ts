// A clean install has nothing to wonder about: every package in the lockfile that runs an install
// script is approved by name in package.json's allowScripts (the lockfile pins its version; npm
// 11.19 still warned about an entry pinned as "esbuild@0.28.2"), so npm's advisory about
// unreviewed scripts (npm 11.16 and later) stays silent, and npm 12, which blocks unreviewed
// scripts, still runs the ones the grader needs.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";

const read = (file: string) => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, file), "utf8"));

test("every locked package with an install script is approved by name in allowScripts, and nothing else is", () => {
  const lock = read("package-lock.json") as { packages: Record<string, { hasInstallScript?: boolean }> };
  const withScripts = Object.entries(lock.packages)
    .filter(([, p]) => p.hasInstallScript)
    .map(([where]) => where.slice(where.lastIndexOf("node_modules/") + "node_modules/".length));
  expect(withScripts.length).toBeGreaterThan(0);
  const approved = (read("package.json") as { allowScripts?: Record<string, boolean> }).allowScripts ?? {};
  expect(Object.keys(approved).sort()).toEqual([...new Set(withScripts)].sort());
  expect(Object.values(approved).every((allowed) => allowed === true)).toBe(true);
});
