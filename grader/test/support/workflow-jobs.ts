// Runs a whole workflow dispatched by hand, job after job as GitHub orders them by `needs`: the
// dispatch's inputs typed and defaulted as declared, each job's `if:` evaluated over its needs'
// results, a `strategy.matrix` expanded (its expressions, such as fromJSON of a needed job's
// output, evaluated) into one run per combination, each run in a workspace and runner temp
// folder of its own, and each job's outputs passed to the jobs that need it. A matrix's runs go
// side by side, as many at once as `runsAtOnce` (and the matrix's max-parallel) allow, as GitHub
// runs them; with fail-fast on, one after the other, so that a failure starts no later run, as
// GitHub's cancellation of the others leaves them without a result.
import { dir } from "tmp-promise";
import { condition, interpolate, type ExpressionScope, type Value } from "./workflow-expressions.js";
import { runJob, type ActionEmulator, type DispatchInput, type JobRun, type Workflow, type WorkflowJob, type WorkflowStep } from "./workflow-runner.js";

/** What became of a job: its result as `needs.<job>.result` reads it, its outputs, and each run (one per matrix combination). */
export interface JobOutcome {
  result: "success" | "failure" | "skipped";
  outputs: Record<string, string>;
  runs: { matrix: Record<string, Value> | null; run: JobRun }[];
}

export interface DispatchOptions {
  /** The inputs given in "Run workflow" (the workflow's defaults fill in the others). */
  inputs: Record<string, string | number | boolean>;
  /** The repository's secrets; one not given reads as empty, as on GitHub. */
  secrets: Record<string, string>;
  /** Variables every runner sets (GITHUB_SERVER_URL, GITHUB_API_URL...); RUNNER_TEMP is made per job run. */
  environment: Record<string, string>;
  actions: Record<string, ActionEmulator>;
  skip?: (step: WorkflowStep) => string | undefined;
  /** Called as each job run ends, with how long it took, to watch a long workflow. */
  onRun?: (jobId: string, matrix: Record<string, Value> | null, run: JobRun, took: { ms: number }) => void;
  /** The most runs of one matrix at once (1 unless told: the machine's processors are the limit a test knows). */
  runsAtOnce?: number;
}

/** The most job runs one matrix may make on GitHub. */
const MATRIX_LIMIT = 256;

/** Runs every job of a `workflow_dispatch` of `workflow`; returns what became of each, by job id. */
export async function dispatchWorkflow(workflow: Workflow, options: DispatchOptions): Promise<Record<string, JobOutcome>> {
  const { inputs, eventInputs } = dispatchInputs(workflow, options.inputs);
  const outcomes: Record<string, JobOutcome> = {};
  const github = { event_name: "workflow_dispatch", event: { inputs: eventInputs }, server_url: options.environment.GITHUB_SERVER_URL ?? "https://github.com" };
  for (const jobId of jobOrder(workflow)) {
    const job = workflow.jobs[jobId]!;
    const needs = Object.fromEntries(needsOf(job).map((id) => [id, { result: outcomes[id]!.result, outputs: outcomes[id]!.outputs }]));
    const base = { needs, inputs, secrets: options.secrets, github } as Record<string, Value>;
    const jobScope: ExpressionScope = { contexts: base, partial: ["github"], failed: Object.values(needs).some((n) => n.result !== "success") };
    if (!condition(job.if, jobScope)) {
      outcomes[jobId] = { result: "skipped", outputs: {}, runs: [] };
      continue;
    }
    if (job.strategy && job.outputs) throw new Error(`job ${jobId}: outputs of a matrix job come from whichever run ends last on GitHub; this runner refuses them`);
    const matrices = job.strategy ? expandMatrix(jobId, job, jobScope) : [null];
    // fail-fast (GitHub's default) cancels the matrix's other runs once one fails.
    const failFast = job.strategy?.["fail-fast"] !== false;
    const atOnce = failFast ? 1 : Math.min(options.runsAtOnce ?? 1, job.strategy?.["max-parallel"] ?? Infinity);
    const runs: JobOutcome["runs"] = [];
    let next = 0;
    const lane = async () => {
      while (next < matrices.length && !(failFast && runs.some((r) => r.run.failed))) {
        const index = next++;
        const matrix = matrices[index]!;
        const started = Date.now();
        const run = await runInFreshFolders(job, { ...base, ...(matrix ? { matrix } : {}) }, options);
        options.onRun?.(jobId, matrix, run, { ms: Date.now() - started });
        runs[index] = { matrix, run };
      }
    };
    await Promise.all(Array.from({ length: atOnce }, lane));
    const ran = runs.filter((r) => r !== undefined);
    outcomes[jobId] = { result: ran.some((r) => r.run.failed) ? "failure" : "success", outputs: ran.at(-1)?.run.outputs ?? {}, runs: ran };
  }
  return outcomes;
}

/** One job run in a workspace and a runner temp folder of its own, removed after. */
async function runInFreshFolders(job: WorkflowJob, contexts: Record<string, Value>, options: DispatchOptions): Promise<JobRun> {
  const workspace = await dir({ unsafeCleanup: true, prefix: "workspace-" });
  const temp = await dir({ unsafeCleanup: true, prefix: "runner-temp-" });
  try {
    return await runJob(job, {
      workspace: workspace.path,
      skip: options.skip,
      actions: options.actions,
      contexts: { ...contexts, runner: { temp: temp.path, os: "Linux" } },
      environment: { ...options.environment, RUNNER_TEMP: temp.path },
    });
  } finally {
    await workspace.cleanup();
    await temp.cleanup();
  }
}

/** The inputs as `inputs.<name>` reads them (typed, defaults filled in) and as `github.event.inputs` does (text); throws on an input not declared or a required one missing. */
export function dispatchInputs(workflow: Workflow, given: Record<string, string | number | boolean>): { inputs: Record<string, Value>; eventInputs: Record<string, string> } {
  const on = workflow.on as Record<string, { inputs?: Record<string, DispatchInput> } | null>;
  if (typeof on !== "object" || Array.isArray(on) || !("workflow_dispatch" in on)) throw new Error(`${workflow.name} cannot be dispatched by hand: it has no workflow_dispatch trigger`);
  const declared = on.workflow_dispatch?.inputs ?? {};
  const unknown = Object.keys(given).filter((name) => !Object.hasOwn(declared, name));
  if (unknown.length > 0) throw new Error(`${workflow.name} declares no input ${unknown.join(", ")}`);
  const inputs: Record<string, Value> = {};
  for (const [name, input] of Object.entries(declared)) {
    const value = Object.hasOwn(given, name) ? given[name]! : input.default;
    if (value === undefined && input.required) throw new Error(`${workflow.name}: the input ${name} is required`);
    const type = input.type ?? "string";
    if (value !== undefined && type === "number" && typeof value !== "number") throw new Error(`${workflow.name}: the input ${name} is a number, got ${JSON.stringify(value)}`);
    if (value !== undefined && type === "boolean" && typeof value !== "boolean") throw new Error(`${workflow.name}: the input ${name} is a boolean, got ${JSON.stringify(value)}`);
    inputs[name] = value ?? (type === "boolean" ? false : type === "number" ? null : "");
  }
  return { inputs, eventInputs: Object.fromEntries(Object.entries(inputs).map(([name, v]) => [name, v === null ? "" : String(v)])) };
}

/** The combinations of a job's `strategy.matrix`, its expressions evaluated; include and exclude are refused (not emulated). */
export function expandMatrix(jobId: string, job: WorkflowJob, scope: ExpressionScope): Record<string, Value>[] {
  const raw = job.strategy!.matrix;
  const matrix = (typeof raw === "string" ? interpolate(raw, scope) : raw) as Record<string, unknown>;
  if (matrix === null || typeof matrix !== "object" || Array.isArray(matrix)) throw new Error(`job ${jobId}: strategy.matrix is not a mapping: ${JSON.stringify(matrix)}`);
  let combinations: Record<string, Value>[] = [{}];
  for (const [key, rawValues] of Object.entries(matrix)) {
    if (key === "include" || key === "exclude") throw new Error(`job ${jobId}: strategy.matrix.${key} is not emulated here`);
    const values = typeof rawValues === "string" ? interpolate(rawValues, scope) : (rawValues as Value);
    if (!Array.isArray(values) || values.length === 0) throw new Error(`job ${jobId}: the matrix vector ${key} does not contain any values: ${JSON.stringify(values)}`);
    combinations = combinations.flatMap((c) => values.map((v) => ({ ...c, [key]: v })));
  }
  if (combinations.length > MATRIX_LIMIT) throw new Error(`job ${jobId}: its matrix makes ${combinations.length} runs; GitHub allows at most ${MATRIX_LIMIT}`);
  return combinations;
}

/** The jobs in an order that runs each after everything it needs (the file's order among those ready). */
export function jobOrder(workflow: Workflow): string[] {
  const order: string[] = [];
  const ids = Object.keys(workflow.jobs);
  while (order.length < ids.length) {
    const ready = ids.find((id) => !order.includes(id) && needsOf(workflow.jobs[id]!).every((n) => order.includes(n)));
    if (!ready) throw new Error(`the jobs ${ids.filter((id) => !order.includes(id)).join(", ")} need each other, or a job that does not exist`);
    order.push(ready);
  }
  return order;
}

function needsOf(job: WorkflowJob): string[] {
  return job.needs === undefined ? [] : Array.isArray(job.needs) ? job.needs : [job.needs];
}
