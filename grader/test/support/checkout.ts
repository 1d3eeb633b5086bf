// A checkout of the repository as a platform brings it to a runner: a copy of the files git
// tracks (and new ones it does not ignore), with the repository's node_modules linked in place
// of `npm ci`, to run the workflow and the platform scripts (classroom50/autograder.py,
// gradescope/run_autograder) for real in tests, unchanged.
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { REPO_ROOT, SOLUTION_DIR } from "../../paths.js";

export interface Checkout {
  path: string;
  cleanup: () => Promise<void>;
}

/** Copies the repository's files (those git tracks, and new ones it does not ignore) into `dir`; node_modules is linked, not copied. */
export async function copyRepository(dir: string): Promise<void> {
  const { stdout } = await execa("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: REPO_ROOT });
  for (const file of stdout.split("\0").filter(Boolean)) {
    const from = path.join(REPO_ROOT, file);
    if (!fs.existsSync(from)) continue; // deleted in the work tree, not yet in git
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.copyFileSync(from, path.join(dir, file));
    fs.chmodSync(path.join(dir, file), fs.statSync(from).mode);
  }
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
}

/**
 * A checkout whose starter/ holds `target`'s files (`null`: the starter as it is; `"missing"`: no
 * starter/ at all); `bonus`, when given, the only bonus deliverables its rubric keeps.
 */
export async function checkoutWith(target: string | null | "missing", options: { bonus?: string[] } = {}): Promise<Checkout> {
  const checkout = await dir({ unsafeCleanup: true, prefix: "checkout-" });
  await copyRepository(checkout.path);
  if (options.bonus) keepOnlyBonus(checkout.path, options.bonus);
  const starter = path.join(checkout.path, "starter");
  if (target !== null) fs.rmSync(starter, { recursive: true });
  if (target !== null && target !== "missing") fs.cpSync(target, starter, { recursive: true });
  return checkout;
}

/**
 * Turns off, in the checkout's rubric, every bonus deliverable but `kept`, as an instructor may:
 * a platform test that is about how scores are carried (the core score, bonus points kept out of
 * it) then grades one bonus tier, the cheapest, instead of every one (each full grade of the
 * solution spends most of its time in the bonus tiers, stretch-git first).
 */
export function keepOnlyBonus(checkout: string, kept: string[]): void {
  const file = path.join(checkout, "grader", "rubric.json");
  const rubric = JSON.parse(fs.readFileSync(file, "utf8")) as { deliverables: { id: string; kind: string; enabled: boolean }[] };
  for (const d of rubric.deliverables) if (d.kind === "bonus" && !kept.includes(d.id)) d.enabled = false;
  fs.writeFileSync(file, JSON.stringify(rubric, null, 2) + "\n");
}

/** The .ts files of `dirs` by name, a later folder's in place of an earlier one's. */
export function tsFiles(...dirs: string[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const from of dirs) for (const name of fs.readdirSync(from)) if (name.endsWith(".ts")) files.set(name, path.join(from, name));
  return files;
}

/** The .ts files of the reference solution, with those of `overlay` (a fixture folder) in their place. */
export function labFiles(overlay?: string): Map<string, string> {
  return overlay ? tsFiles(SOLUTION_DIR, overlay) : tsFiles(SOLUTION_DIR);
}

/** Copies `files` (name to source path) into `dir`. */
export function putFiles(dir: string, files: Map<string, string>): void {
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, from] of files) fs.copyFileSync(from, path.join(dir, name));
}
