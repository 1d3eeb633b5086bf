// Emulators of the actions a workflow run here needs, as the versions the workflows use behave
// (checkout v7, setup-node v7, upload-artifact v7, download-artifact v8): actions/checkout (a
// copy of this repository, node_modules linked), actions/setup-node (the Node running the tests),
// and actions/upload-artifact and actions/download-artifact over a folder that stands for the
// run's artifact storage. An input they do not emulate is refused, never ignored.
import fs from "node:fs";
import path from "node:path";
import { copyRepository } from "./checkout.js";
import type { ActionEmulator, ActionResult } from "./workflow-runner.js";

/** The emulators, by action name; artifacts live in `store`, one folder per artifact. */
export function emulatedActions(store: string): Record<string, ActionEmulator> {
  fs.mkdirSync(store, { recursive: true });
  return {
    "actions/checkout": async (inputs, _env, { workspace }) => {
      refuseOthers("actions/checkout", inputs, ["persist-credentials"]);
      await copyRepository(workspace);
      return { failed: false, log: "checked out this repository" };
    },
    "actions/setup-node": (inputs) => {
      refuseOthers("actions/setup-node", inputs, ["node-version", "cache"]);
      return { failed: false, log: `Node ${process.versions.node} (asked for ${inputs["node-version"]})` };
    },
    "actions/upload-artifact": (inputs, _env, { workspace }) => upload(store, workspace, inputs),
    "actions/download-artifact": (inputs, _env, { workspace }) => download(store, workspace, inputs),
  };
}

/** upload-artifact@v7: the files of every path (folders whole), kept relative to the paths' common folder. */
function upload(store: string, workspace: string, inputs: Record<string, string>): ActionResult {
  refuseOthers("actions/upload-artifact", inputs, ["name", "path", "if-no-files-found", "include-hidden-files", "retention-days", "overwrite"]);
  const name = inputs.name || "artifact";
  const searched = (inputs.path ?? "").split("\n").map((p) => p.trim()).filter(Boolean);
  if (searched.some((p) => /[*?[\]!~]/.test(p))) throw new Error(`upload-artifact: the path ${JSON.stringify(inputs.path)} has a pattern, which is not emulated here`);
  const roots = searched.map((p) => path.resolve(workspace, p));
  const hidden = (file: string) => file.split(path.sep).some((segment) => segment.startsWith("."));
  const files = roots.flatMap(filesBelow).filter((f) => inputs["include-hidden-files"] === "true" || !hidden(f));
  if (files.length === 0) {
    const failed = inputs["if-no-files-found"] === "error";
    return { failed, log: `No files were found with the provided path: ${searched.join(", ")}. No artifacts will be uploaded.` };
  }
  const target = path.join(store, name);
  if (fs.existsSync(target) && inputs.overwrite !== "true") return { failed: true, log: `Failed to CreateArtifact: an artifact with the name ${name} already exists (409 Conflict)` };
  fs.rmSync(target, { recursive: true, force: true });
  const base = commonFolder(roots.map((r) => (fs.statSync(r).isDirectory() ? r : path.dirname(r))));
  for (const file of files) {
    const to = path.join(target, path.relative(base, file));
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(file, to);
  }
  return { failed: false, log: `Artifact ${name} has been uploaded: ${files.length} files` };
}

/** download-artifact@v8: one artifact by name into `path`, or those whose names match `pattern` (or all), each into a folder of its name unless merge-multiple. */
function download(store: string, workspace: string, inputs: Record<string, string>): ActionResult {
  refuseOthers("actions/download-artifact", inputs, ["name", "pattern", "path", "merge-multiple"]);
  const into = path.resolve(workspace, inputs.path || ".");
  const stored = fs.readdirSync(store).sort();
  if (inputs.name) {
    if (!stored.includes(inputs.name)) return { failed: true, log: `Unable to download artifact(s): Artifact '${inputs.name}' not found` };
    fs.cpSync(path.join(store, inputs.name), into, { recursive: true });
    return { failed: false, log: `Downloaded ${inputs.name}` };
  }
  const matching = inputs.pattern ? stored.filter((name) => globToRegExp(inputs.pattern!).test(name)) : stored;
  for (const name of matching) fs.cpSync(path.join(store, name), inputs["merge-multiple"] === "true" ? into : path.join(into, name), { recursive: true });
  return { failed: false, log: `Total of ${matching.length} artifact(s) downloaded` };
}

function refuseOthers(action: string, inputs: Record<string, string>, emulated: string[]): void {
  const others = Object.keys(inputs).filter((input) => !emulated.includes(input));
  if (others.length > 0) throw new Error(`${action}: the input ${others.join(", ")} is not emulated here`);
}

function filesBelow(p: string): string[] {
  const stat = fs.statSync(p, { throwIfNoEntry: false });
  if (!stat) return [];
  if (stat.isFile()) return [p];
  return fs.readdirSync(p).flatMap((name) => filesBelow(path.join(p, name)));
}

/** The deepest folder that holds every one of `folders`. */
function commonFolder(folders: string[]): string {
  const split = folders.map((f) => f.split(path.sep));
  const common: string[] = [];
  for (let i = 0; split.every((s) => i < s.length && s[i] === split[0]![i]); i++) common.push(split[0]![i]!);
  return common.join(path.sep) || path.sep;
}

/** minimatch's reading of an artifact name pattern: `*` any run of characters but "/", `?` one. */
function globToRegExp(pattern: string): RegExp {
  return new RegExp(`^${pattern.replace(/[.+^${}()|\\]/g, "\\$&").replace(/\*/g, "[^/]*").replace(/\?/g, "[^/]")}$`);
}
