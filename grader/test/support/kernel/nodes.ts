// The Node binaries the kernel conformance test runs: the one running the test, and each version
// node-versions.json pins, installed by install-nodes.mjs (which .ci/run runs).
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../../../paths.js";
import pinned from "./node-versions.json" with { type: "json" };

export const INSTALL_COMMAND = "node grader/test/support/kernel/install-nodes.mjs";

export interface NodeBinary {
  version: string;
  /** The binary, or null when it is not installed. */
  file: string | null;
}

/** The running Node, then each pinned version; a pinned one not installed has no file. */
export function nodesToCheck(): NodeBinary[] {
  const others = pinned.versions.map((version) => {
    const file = path.join(REPO_ROOT, "node_modules/.cache/node-versions", version, "node_modules", pinned.package, "bin/node");
    return { version, file: fs.existsSync(file) ? file : null };
  });
  return [{ version: process.versions.node, file: process.execPath }, ...others];
}
