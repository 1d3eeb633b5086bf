// Runs one job of a GitHub Actions workflow locally, the way a runner would: its steps in order,
// each `run:` script with bash (`shell: bash` is `bash --noprofile --norc -eo pipefail`), with
// GITHUB_OUTPUT and GITHUB_STEP_SUMMARY as fresh files per step, `if:`, `continue-on-error`
// and `timeout-minutes` honoured, and `${{ steps.<id>.outputs.<name> }}` expanded from what
// earlier steps wrote. Steps that use an action are skipped unless the caller emulates that
// action. Anything else the runner would evaluate is refused, so that a workflow cannot
// silently do here something other than what it does on GitHub.
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { parse } from "yaml";

export interface WorkflowStep {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string | number | boolean>;
  "continue-on-error"?: boolean;
  "timeout-minutes"?: number;
  "working-directory"?: string;
}

export interface WorkflowJob {
  "runs-on": string;
  if?: string;
  env?: Record<string, string>;
  defaults?: { run?: { shell?: string } };
  "timeout-minutes"?: number;
  steps: WorkflowStep[];
}

export interface Workflow {
  name: string;
  on: Record<string, unknown> | string[] | string;
  permissions?: Record<string, string>;
  jobs: Record<string, WorkflowJob>;
}

/** Emulates an action: its inputs (`with:`) and environment in, whether its step failed out. */
export type ActionEmulator = (inputs: Record<string, string>, env: Record<string, string | undefined>) => { failed: boolean; log: string };

export interface StepRun {
  step: WorkflowStep;
  outcome: "success" | "failure" | "skipped";
  /** Why it was skipped: its `if:` was false, the caller skipped it, or it uses an action not emulated. */
  skipped?: string;
  log: string;
  outputs: Record<string, string>;
}

export interface JobRun {
  steps: StepRun[];
  /** The job summary: every step's GITHUB_STEP_SUMMARY, in order. */
  summary: string;
  /** The job failed: a step failed without `continue-on-error`. */
  failed: boolean;
}

export interface JobOptions {
  /** The checkout: the folder every step runs in. */
  workspace: string;
  /** Steps to leave out (with the reason), such as an install the caller has done another way. */
  skip?: (step: WorkflowStep) => string | undefined;
  /** Emulators of actions, by action name without its version ("owner/repo"). */
  actions?: Record<string, ActionEmulator>;
}

/** Reads a workflow file (YAML 1.2, so `on:` stays a key). */
export function loadWorkflow(file: string): Workflow {
  return parse(fs.readFileSync(file, "utf8")) as Workflow;
}

/** The action a `uses:` names, without its version: "actions/checkout". */
export function actionName(uses: string): string {
  return uses.split("@")[0]!;
}

/** Runs `job`'s steps in order in `options.workspace`, as a runner would. */
export async function runJob(job: WorkflowJob, options: JobOptions): Promise<JobRun> {
  const { path: scratch, cleanup } = await dir({ unsafeCleanup: true, prefix: "workflow-" });
  try {
    const runs: StepRun[] = [];
    let summary = "";
    let failed = false;
    for (const [index, step] of job.steps.entries()) {
      const outputs = Object.fromEntries(runs.filter((r) => r.step.id).map((r) => [r.step.id!, r.outputs]));
      const run = await runStep(step, { job, options, outputs, failed, files: path.join(scratch, String(index)) });
      runs.push(run.run);
      summary += run.summary;
      if (run.run.outcome === "failure" && !step["continue-on-error"]) failed = true;
    }
    return { steps: runs, summary, failed };
  } finally {
    await cleanup();
  }
}

interface StepContext {
  job: WorkflowJob;
  options: JobOptions;
  /** Earlier steps' outputs by step id. */
  outputs: Record<string, Record<string, string>>;
  /** Whether the job has failed so far. */
  failed: boolean;
  /** A fresh folder for this step's GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files. */
  files: string;
}

/** Runs one step: skipped (by its `if:` or the caller), emulated when it uses an action, else its script with bash. */
async function runStep(step: WorkflowStep, ctx: StepContext): Promise<{ run: StepRun; summary: string }> {
  const skipped = (why: string) => ({ run: { step, outcome: "skipped" as const, skipped: why, log: "", outputs: {} }, summary: "" });
  if (!condition(step.if, ctx.failed)) return skipped(`if: ${step.if ?? "success()"} is false`);
  const callerSkip = ctx.options.skip?.(step);
  if (callerSkip) return skipped(callerSkip);
  const env = { ...expandAll(ctx.job.env, ctx.outputs), ...expandAll(step.env, ctx.outputs) };
  if (step.uses) {
    const emulate = ctx.options.actions?.[actionName(step.uses)];
    if (!emulate) return skipped(`uses ${step.uses}, not emulated`);
    const { failed, log } = emulate(expandAll(step.with, ctx.outputs), env);
    return { run: { step, outcome: failed ? "failure" : "success", log, outputs: {} }, summary: "" };
  }
  if (step.run === undefined) throw new Error(`step ${label(step)} neither runs nor uses anything`);
  if (step["working-directory"]) throw new Error(`step ${label(step)}: working-directory is not supported here`);
  const shell = step.shell ?? ctx.job.defaults?.run?.shell;
  if (shell !== "bash") throw new Error(`step ${label(step)} must run with shell: bash (its own or the job's defaults), not ${shell ?? "the runner's default"}`);
  if (/\$\{\{/.test(step.run)) throw new Error(`step ${label(step)} has an expression in its script: pass it through env instead`);
  fs.mkdirSync(ctx.files, { recursive: true });
  const files = { script: path.join(ctx.files, "script.sh"), output: path.join(ctx.files, "output"), summary: path.join(ctx.files, "summary") };
  fs.writeFileSync(files.script, step.run);
  for (const file of [files.output, files.summary]) fs.writeFileSync(file, "");
  const minutes = step["timeout-minutes"];
  const result = await execa("bash", ["--noprofile", "--norc", "-eo", "pipefail", files.script], {
    cwd: ctx.options.workspace,
    env: { ...env, CI: "true", GITHUB_ACTIONS: "true", GITHUB_WORKSPACE: ctx.options.workspace, GITHUB_OUTPUT: files.output, GITHUB_STEP_SUMMARY: files.summary },
    all: true,
    reject: false,
    timeout: minutes === undefined ? undefined : minutes * 60_000,
  });
  const outcome = result.exitCode === 0 ? "success" : "failure";
  const log = String(result.all ?? "") + (result.timedOut ? `\n(the step ran out of its ${minutes} minutes)` : "");
  return { run: { step, outcome, log, outputs: parseOutputs(fs.readFileSync(files.output, "utf8")) }, summary: fs.readFileSync(files.summary, "utf8") };
}

/** Whether a step's `if:` holds, for the conditions this workflow may use. */
function condition(expression: string | undefined, failed: boolean): boolean {
  const bare = (expression ?? "success()").trim().replace(/^\$\{\{\s*([\s\S]*?)\s*\}\}$/, "$1");
  switch (bare) {
    case "always()": return true;
    case "success()": return !failed;
    case "failure()": return failed;
    case "!cancelled()": return true;
    default: throw new Error(`if: ${expression} is not a condition this runner evaluates`);
  }
}

/** The values of an `env:` or `with:` map, with `${{ steps.<id>.outputs.<name> }}` expanded (a missing output is empty, as on GitHub). */
function expandAll(values: Record<string, string | number | boolean> | undefined, outputs: Record<string, Record<string, string>>): Record<string, string> {
  const expand = (value: string) =>
    value.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
      const match = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
      if (!match) throw new Error(`\${{ ${expression} }} is not an expression this runner evaluates`);
      return outputs[match[1]!]?.[match[2]!] ?? "";
    });
  return Object.fromEntries(Object.entries(values ?? {}).map(([key, value]) => [key, expand(String(value))]));
}

/** The outputs a step wrote to GITHUB_OUTPUT: `name=value` lines and `name<<DELIMITER` blocks. */
function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === "") continue;
    const block = /^([^=]+?)<<(.+)$/.exec(line);
    if (block) {
      const end = lines.indexOf(block[2]!, i + 1);
      if (end < 0) throw new Error(`GITHUB_OUTPUT: ${block[1]} has no closing ${block[2]}`);
      outputs[block[1]!] = lines.slice(i + 1, end).join("\n");
      i = end;
      continue;
    }
    const equals = line.indexOf("=");
    if (equals < 0) throw new Error(`GITHUB_OUTPUT: a line neither name=value nor name<<DELIMITER: ${line}`);
    outputs[line.slice(0, equals)] = line.slice(equals + 1);
  }
  return outputs;
}

/** How a step is named in messages. */
export function label(step: WorkflowStep): string {
  return JSON.stringify(step.name ?? step.id ?? step.run ?? step.uses);
}
