// A checkout of the repository as a student's push would bring it to a runner: a temporary copy
// of the repository's files whose starter/ folder is a given target (or missing), with the
// repository's node_modules linked in place of `npm ci`. The workflow then runs unchanged and
// grades starter/, as it does on GitHub, whatever the target is.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { REPO_ROOT } from "../../paths.js";

/** Top-level entries a fresh checkout does not have (git's own, installed, or left by a grade). */
const NOT_CHECKED_OUT = new Set([".git", "node_modules", ".grade"]);

export interface Checkout {
  path: string;
  cleanup: () => Promise<void>;
}

/** A copy of the repository with `target`'s files as its starter/ (`null`: the starter as it is; `"missing"`: no starter/ at all). */
export async function checkoutWith(target: string | null | "missing"): Promise<Checkout> {
  const checkout = await dir({ unsafeCleanup: true, prefix: "checkout-" });
  fs.cpSync(REPO_ROOT, checkout.path, { recursive: true, filter: (source) => !NOT_CHECKED_OUT.has(path.relative(REPO_ROOT, source).split(path.sep)[0]!) });
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(checkout.path, "node_modules"), "dir");
  const starter = path.join(checkout.path, "starter");
  if (target !== null) fs.rmSync(starter, { recursive: true });
  if (target !== null && target !== "missing") fs.cpSync(target, starter, { recursive: true });
  return checkout;
}
