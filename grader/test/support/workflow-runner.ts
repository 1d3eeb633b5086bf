// Runs one job of a GitHub Actions workflow locally, the way a runner would: its steps in order,
// each `run:` script with bash (`shell: bash` is `bash --noprofile --norc -eo pipefail`), with
// GITHUB_OUTPUT and GITHUB_STEP_SUMMARY as fresh files per step, `if:`, `continue-on-error`
// and `timeout-minutes` honoured, expressions in `if:`, `env:` and `with:` evaluated
// (workflow-expressions.ts) over the steps' outputs and the contexts the caller gives (matrix,
// needs, inputs, secrets, github, runner), and the job's `outputs:` evaluated once it ends.
// Steps that use an action are skipped unless the caller emulates that action. Anything else
// the runner would evaluate is refused, so that a workflow cannot silently do here something
// other than what it does on GitHub. workflow-jobs.ts runs a whole workflow's jobs with this.
import { execa } from "execa";
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { parse } from "yaml";
import { asText, condition, interpolate, type ExpressionScope, type Value } from "./workflow-expressions.js";

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
  needs?: string | string[];
  env?: Record<string, string>;
  defaults?: { run?: { shell?: string } };
  "timeout-minutes"?: number;
  permissions?: Record<string, string>;
  strategy?: { matrix: string | Record<string, unknown>; "fail-fast"?: boolean; "max-parallel"?: number };
  /** Evaluated once the job's steps have run: `${{ steps.<id>.outputs.<name> }}`. */
  outputs?: Record<string, string>;
  steps: WorkflowStep[];
}

/** A `workflow_dispatch` input as declared. */
export interface DispatchInput {
  description?: string;
  type?: "string" | "number" | "boolean" | "choice" | "environment";
  required?: boolean;
  default?: string | number | boolean;
  options?: string[];
}

export interface Workflow {
  name: string;
  on: Record<string, unknown> | string[] | string;
  permissions?: Record<string, string>;
  jobs: Record<string, WorkflowJob>;
}

/** Where an emulated action runs: the job's checkout, and the variables the runner itself sets (RUNNER_TEMP, GITHUB_SERVER_URL...). */
export interface ActionContext {
  workspace: string;
  environment: Record<string, string>;
}

/** Emulates an action: its inputs (`with:`) and environment in, whether its step failed out. */
export type ActionEmulator = (inputs: Record<string, string>, env: Record<string, string | undefined>, context: ActionContext) => ActionResult | Promise<ActionResult>;

/** What an emulated action did. */
export interface ActionResult {
  failed: boolean;
  log: string;
}

/** An annotation a step's script wrote (`::error title=T::message`), as the run's page shows it. */
export interface Annotation {
  level: "notice" | "warning" | "error";
  title?: string;
  message: string;
}

export interface StepRun {
  step: WorkflowStep;
  outcome: "success" | "failure" | "skipped";
  /** Why it was skipped: its `if:` was false, the caller skipped it, or it uses an action not emulated. */
  skipped?: string;
  log: string;
  outputs: Record<string, string>;
  /** The annotations its script wrote, in order. */
  annotations: Annotation[];
}

export interface JobRun {
  steps: StepRun[];
  /** The job summary: every step's GITHUB_STEP_SUMMARY, in order. */
  summary: string;
  /** Every step's annotations, in order. */
  annotations: Annotation[];
  /** The job failed: a step failed without `continue-on-error`. */
  failed: boolean;
  /** The job's `outputs:`, evaluated after its last step (empty when it declares none). */
  outputs: Record<string, string>;
}

export interface JobOptions {
  /** The checkout: the folder every step runs in. */
  workspace: string;
  /** Steps to leave out (with the reason), such as an install the caller has done another way. */
  skip?: (step: WorkflowStep) => string | undefined;
  /** Emulators of actions, by action name without its version ("owner/repo"). */
  actions?: Record<string, ActionEmulator>;
  /** The expression contexts beside `steps`: matrix, needs, inputs, secrets, github, runner (only those given exist). */
  contexts?: Record<string, Value>;
  /** Variables the runner sets in every step, beside CI, GITHUB_ACTIONS, GITHUB_WORKSPACE, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY: RUNNER_TEMP, GITHUB_SERVER_URL... */
  environment?: Record<string, string>;
}

/** Contexts of which only some fields are given here: reading another is refused rather than read as null. */
const PARTIAL_CONTEXTS = ["github", "runner"];

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
    const scopeNow = () => stepsScope(runs, options, failed);
    for (const [index, step] of job.steps.entries()) {
      const run = await runStep(step, { job, options, scope: scopeNow(), files: path.join(scratch, String(index)) });
      runs.push(run.run);
      summary += run.summary;
      if (run.run.outcome === "failure" && !step["continue-on-error"]) failed = true;
    }
    const outputs = expandAll(job.outputs, scopeNow());
    return { steps: runs, summary, failed, outputs, annotations: runs.flatMap((r) => r.annotations) };
  } finally {
    await cleanup();
  }
}

/** What a step's expressions read: the caller's contexts, and `steps` (each earlier step with an id: outputs, outcome, conclusion). */
function stepsScope(runs: StepRun[], options: JobOptions, failed: boolean): ExpressionScope {
  const steps = Object.fromEntries(
    runs.filter((r) => r.step.id).map((r) => {
      const conclusion = r.outcome === "failure" && r.step["continue-on-error"] ? "success" : r.outcome;
      return [r.step.id!, { outputs: r.outputs, outcome: r.outcome, conclusion }];
    }),
  );
  return { contexts: { ...options.contexts, steps }, partial: PARTIAL_CONTEXTS, failed };
}

interface StepContext {
  job: WorkflowJob;
  options: JobOptions;
  /** What the step's expressions read, and whether the job has failed so far. */
  scope: ExpressionScope;
  /** A fresh folder for this step's GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files. */
  files: string;
}

/** Runs one step: skipped (by its `if:` or the caller), emulated when it uses an action, else its script with bash. */
async function runStep(step: WorkflowStep, ctx: StepContext): Promise<{ run: StepRun; summary: string }> {
  const skipped = (why: string) => ({ run: { step, outcome: "skipped" as const, skipped: why, log: "", outputs: {}, annotations: [] }, summary: "" });
  if (!condition(step.if, ctx.scope)) return skipped(`if: ${step.if ?? "success()"} is false`);
  const callerSkip = ctx.options.skip?.(step);
  if (callerSkip) return skipped(callerSkip);
  const env = { ...expandAll(ctx.job.env, ctx.scope), ...expandAll(step.env, ctx.scope) };
  if (typeof step["continue-on-error"] === "string" || typeof step["timeout-minutes"] === "string") throw new Error(`step ${label(step)}: an expression in continue-on-error or timeout-minutes is not supported here`);
  if (step.uses) {
    const emulate = ctx.options.actions?.[actionName(step.uses)];
    if (!emulate) return skipped(`uses ${step.uses}, not emulated`);
    const { failed, log } = await emulate(expandAll(step.with, ctx.scope), env, { workspace: ctx.options.workspace, environment: ctx.options.environment ?? {} });
    return { run: { step, outcome: failed ? "failure" : "success", log, outputs: {}, annotations: [] }, summary: "" };
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
    env: { ...env, ...ctx.options.environment, CI: "true", GITHUB_ACTIONS: "true", GITHUB_WORKSPACE: ctx.options.workspace, GITHUB_OUTPUT: files.output, GITHUB_STEP_SUMMARY: files.summary },
    all: true,
    reject: false,
    timeout: minutes === undefined ? undefined : minutes * 60_000,
  });
  const outcome = result.exitCode === 0 ? "success" : "failure";
  const all = String(result.all ?? "");
  const log = all + (result.timedOut ? `\n(the step ran out of its ${minutes} minutes)` : "");
  return { run: { step, outcome, log, outputs: parseOutputs(fs.readFileSync(files.output, "utf8")), annotations: parseAnnotations(all) }, summary: fs.readFileSync(files.summary, "utf8") };
}

/** The values of an `env:`, `with:` or `outputs:` map as text, every `${{ }}` in them evaluated (a missing output or input is empty, as on GitHub). */
function expandAll(values: Record<string, string | number | boolean> | undefined, scope: ExpressionScope): Record<string, string> {
  return Object.fromEntries(Object.entries(values ?? {}).map(([key, value]) => [key, asText(interpolate(String(value), scope), String(value))]));
}

/**
 * The annotations in a script's output, read as the runner reads workflow commands (its
 * ActionCommand.TryParseV2), from stdout and stderr alike: a line that starts, after white space,
 * with `::notice`, `::warning` or `::error`, then properties (`name=value`, comma-separated) and
 * `::`, then the message. The message's "%", CR and LF come escaped as %25, %0D and %0A; a
 * property's also ":" and "," as %3A and %2C. (The older `##[error]` form is not read here.)
 */
export function parseAnnotations(output: string): Annotation[] {
  const data = (text: string) => text.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%25/g, "%");
  const property = (text: string) => data(text.replace(/%3A/g, ":").replace(/%2C/g, ","));
  return output.split(/\r?\n/).flatMap((line) => {
    const command = line.trimStart();
    const end = command.indexOf("::", 2);
    if (!command.startsWith("::") || end < 0) return [];
    const [level = "", ...rest] = command.slice(2, end).split(" ");
    if (level !== "notice" && level !== "warning" && level !== "error") return [];
    const pairs = rest.join(" ").trim().split(",").filter(Boolean).map((p) => p.split("=")).filter((p) => p.length >= 2 && p[0] !== "");
    const title = pairs.filter(([name]) => name === "title").at(-1); // the last one given, as the runner keeps it
    return [{ level, ...(title ? { title: property(title.slice(1).join("=")) } : {}), message: data(command.slice(end + 2)) }];
  });
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
