// The local workflow runner's parts that the workflows need (support/workflow-*.ts): expressions
// evaluated as GitHub does and refused where they are not emulated, a dispatch's inputs, the
// order of jobs and their matrices, the annotations a script writes, and the artifact actions' emulators.
import fs from "node:fs";
import path from "node:path";
import { dir } from "tmp-promise";
import { describe, expect, test } from "vitest";
import { emulatedActions } from "./support/workflow-actions.js";
import { condition, evaluate, interpolate, type ExpressionScope } from "./support/workflow-expressions.js";
import { dispatchInputs, dispatchWorkflow, expandMatrix, jobOrder } from "./support/workflow-jobs.js";
import { parseAnnotations, runJob, type Workflow, type WorkflowJob } from "./support/workflow-runner.js";

const scope = (failed = false): ExpressionScope => ({
  contexts: {
    inputs: { shards: "4", org: "", only: "phase1" },
    needs: { plan: { result: "success", outputs: { matrix: '{"shard":[1,2,3]}', shards: "3" } } },
    matrix: { shard: 2 },
    github: { event: { inputs: { shards: "4" } } },
  },
  partial: ["github"],
  failed,
});

describe("expressions", () => {
  test("reads paths, literals and GitHub's loose comparisons (strings ignoring case, mixed types as numbers)", () => {
    const cases: [string, unknown][] = [
      ["needs.plan.outputs.shards", "3"],
      ["matrix['shard']", 2],
      ["inputs.missing", null],
      ["'it''s'", "it's"],
      ["inputs.only == 'PHASE1'", true],
      ["inputs.shards == 4", true],
      ["inputs.org == 0", true],
      ["null == false", true],
      ["inputs.shards > 3 && inputs.org", ""],
      ["inputs.org || 'none'", "none"],
      ["!(inputs.org != '')", true],
      ["fromJSON(needs.plan.outputs.matrix)", { shard: [1, 2, 3] }],
      ["toJSON(matrix)", '{\n  "shard": 2\n}'],
    ];
    for (const [expression, value] of cases) expect(evaluate(expression, scope()), expression).toEqual(value);
  });

  test("a condition without a status function holds only while the job succeeds; always() and !cancelled() hold after a failure", () => {
    expect(condition("inputs.only == 'phase1'", scope())).toBe(true);
    expect(condition("inputs.only == 'phase1'", scope(true))).toBe(false);
    expect(condition(undefined, scope(true))).toBe(false);
    expect(condition("always()", scope(true))).toBe(true);
    expect(condition("${{ !cancelled() && needs.plan.result == 'success' }}", scope(true))).toBe(true);
    expect(condition("${{ !cancelled() && needs.plan.result == 'failure' }}", scope(true))).toBe(false);
    expect(condition("failure()", scope(false))).toBe(false);
  });

  test("a string that is one expression keeps its value's type; inside text a value is written out, an object refused", () => {
    expect(interpolate("${{ fromJSON(needs.plan.outputs.matrix) }}", scope())).toEqual({ shard: [1, 2, 3] });
    expect(interpolate("shard-${{ matrix.shard }} of ${{ needs.plan.outputs.shards }}${{ inputs.missing }}", scope())).toBe("shard-2 of 3");
    expect(() => interpolate("m: ${{ matrix }}", scope())).toThrow("${{ matrix }} is an object or array, which GitHub would not write out as its contents: use toJSON");
  });

  test("refuses what it does not evaluate as GitHub would: other functions, contexts it lacks, fields of a context it knows only in part, bad syntax", () => {
    const refusals: [string, string][] = [
      ["contains(inputs.org, 'x')", "contains() is not a function this runner evaluates"],
      ["env.X", "the context env is not one this runner has"],
      ["github.actor", "github.actor is not known to this runner"],
      ["inputs.org ==", "expected more, got the end"],
      ["inputs.org = 'x'", 'cannot read it from " = \'x\'"'],
      ["(inputs.org", "expected ), got the end"],
      ["inputs.org inputs.only", "unexpected inputs"],
    ];
    for (const [expression, message] of refusals) expect(() => evaluate(expression, scope()), expression).toThrow(message);
  });
});

describe("jobs", () => {
  const workflow = (jobs: Record<string, Partial<WorkflowJob>>, inputs = {}): Workflow => ({ name: "W", on: { workflow_dispatch: { inputs } }, jobs: jobs as Record<string, WorkflowJob> });

  test("a dispatch's inputs: typed and defaulted as declared, as text under github.event.inputs; an undeclared or missing required one refused", () => {
    const w = workflow({}, { shards: { type: "string", default: "10" }, flag: { type: "boolean" }, n: { type: "number" }, note: { type: "string" } });
    expect(dispatchInputs(w, { note: "x", flag: true })).toEqual({ inputs: { shards: "10", flag: true, n: null, note: "x" }, eventInputs: { shards: "10", flag: "true", n: "", note: "x" } });
    expect(() => dispatchInputs(w, { other: "x" })).toThrow("W declares no input other");
    expect(() => dispatchInputs(w, { flag: "yes" })).toThrow('the input flag is a boolean, got "yes"');
    expect(() => dispatchInputs(workflow({}, { must: { required: true } }), {})).toThrow("the input must is required");
    expect(() => dispatchInputs({ name: "P", on: { push: null }, jobs: {} }, {})).toThrow("P cannot be dispatched by hand");
  });

  test("jobs run after what they need, in the file's order otherwise; a cycle is refused", () => {
    expect(jobOrder(workflow({ merge: { needs: ["plan", "grade"] }, grade: { needs: "plan" }, plan: {}, lint: {} }))).toEqual(["plan", "grade", "merge", "lint"]);
    expect(() => jobOrder(workflow({ a: { needs: "b" }, b: { needs: "a" } }))).toThrow("the jobs a, b need each other, or a job that does not exist");
  });

  test("a matrix from fromJSON or from lists makes one run per combination; include, exclude and an empty vector are refused", () => {
    const job = (matrix: unknown) => ({ strategy: { matrix } }) as WorkflowJob;
    expect(expandMatrix("g", job("${{ fromJSON(needs.plan.outputs.matrix) }}"), scope())).toEqual([{ shard: 1 }, { shard: 2 }, { shard: 3 }]);
    expect(expandMatrix("g", job({ os: ["a", "b"], node: "${{ fromJSON('[20, 22]') }}" }), scope())).toEqual([{ os: "a", node: 20 }, { os: "a", node: 22 }, { os: "b", node: 20 }, { os: "b", node: 22 }]);
    expect(() => expandMatrix("g", job({ os: ["a"], include: [{ os: "c" }] }), scope())).toThrow("job g: strategy.matrix.include is not emulated here");
    expect(() => expandMatrix("g", job({ os: [] }), scope())).toThrow("job g: the matrix vector os does not contain any values: []");
  });

  test("a matrix's runs go side by side up to runsAtOnce and max-parallel, kept in the matrix's order; with fail-fast on, a failed run starts no later one", async () => {
    const tmp = await dir({ unsafeCleanup: true, prefix: "matrix-" });
    try {
      // Each run writes when it starts and ends; run 1 fails and takes longest.
      const log = path.join(tmp.path, "log");
      const steps = [{ run: 'echo "start $N" >> "$LOG"; if [ "$N" = 1 ]; then sleep 1; echo "end $N" >> "$LOG"; exit 1; fi; sleep 0.3; echo "end $N" >> "$LOG"' }];
      const dispatch = async (strategy: Record<string, unknown>, runsAtOnce: number) => {
        fs.writeFileSync(log, "");
        const job = { "runs-on": "ubuntu-latest", defaults: { run: { shell: "bash" } }, strategy: { matrix: { n: [1, 2, 3, 4] }, ...strategy }, env: { N: "${{ matrix.n }}", LOG: log }, steps };
        const { g } = await dispatchWorkflow(workflow({ g: job as Partial<WorkflowJob> }), { inputs: {}, secrets: {}, environment: {}, actions: {}, runsAtOnce });
        const lines = fs.readFileSync(log, "utf8").trim().split("\n");
        // The most runs started and not yet ended at any moment.
        const most = lines.reduce(({ now, top }, l) => ({ now: now + (l.startsWith("start") ? 1 : -1), top: Math.max(top, now + (l.startsWith("start") ? 1 : 0)) }), { now: 0, top: 0 }).top;
        return { result: g!.result, order: g!.runs.map((r) => r.matrix), failed: g!.runs.map((r) => r.run.failed), most };
      };
      const all = [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }];
      expect(await dispatch({ "fail-fast": false }, 2)).toEqual({ result: "failure", order: all, failed: [true, false, false, false], most: 2 });
      expect(await dispatch({ "fail-fast": false, "max-parallel": 1 }, 2)).toEqual({ result: "failure", order: all, failed: [true, false, false, false], most: 1 });
      expect(await dispatch({}, 2)).toEqual({ result: "failure", order: [{ n: 1 }], failed: [true], most: 1 });
    } finally {
      await tmp.cleanup();
    }
  });
});

describe("annotations", () => {
  test("a workflow command at the start of a line (after white space) is an annotation, its escapes undone; any other line is not", () => {
    const output = [
      "> npm's banner",
      "::notice title=Grade::Points 65/100",
      "::error title=a%3A b%2C c%25=d::line 1%0Aline 2 %25 done :: still the message",
      "::warning::no title",
      "::warning file=x.ts,line=3,title=T:1::with a file",
      "  ::notice::indented",
      "::debug::not an annotation",
      "::notice title=X:missing the closing colons",
      "echo ::error::inside a line",
    ].join("\n");
    expect(parseAnnotations(output)).toEqual([
      { level: "notice", title: "Grade", message: "Points 65/100" },
      { level: "error", title: "a: b, c%=d", message: "line 1\nline 2 % done :: still the message" },
      { level: "warning", message: "no title" },
      { level: "warning", title: "T:1", message: "with a file" },
      { level: "notice", message: "indented" },
    ]);
  });

  test("a job's annotations are its steps' in order, from stdout and stderr alike", async () => {
    const tmp = await dir({ unsafeCleanup: true, prefix: "annotations-" });
    try {
      const job: WorkflowJob = {
        "runs-on": "ubuntu-latest",
        defaults: { run: { shell: "bash" } },
        steps: [
          { name: "one", run: "echo '::notice title=T::first'; echo '::error::second' >&2; exit 1" },
          { name: "two", if: "always()", run: "echo '::warning::third'" },
        ],
      };
      const run = await runJob(job, { workspace: tmp.path });
      expect(run.steps.map((s) => s.annotations.length)).toEqual([2, 1]);
      expect(run.annotations).toEqual([{ level: "notice", title: "T", message: "first" }, { level: "error", message: "second" }, { level: "warning", message: "third" }]);
      expect(run.failed).toBe(true);
    } finally {
      await tmp.cleanup();
    }
  });
});

describe("the artifact actions' emulators", () => {
  test("upload keeps paths relative to their common folder, leaves hidden files out, refuses a name taken; download by name, or by pattern into a folder each", async () => {
    const tmp = await dir({ unsafeCleanup: true, prefix: "artifacts-" });
    try {
      const actions = emulatedActions(path.join(tmp.path, "store"));
      const context = { workspace: path.join(tmp.path, "ws"), environment: {} };
      const write = (rel: string) => (fs.mkdirSync(path.dirname(path.join(context.workspace, rel)), { recursive: true }), fs.writeFileSync(path.join(context.workspace, rel), rel));
      for (const f of ["out/a.csv", "out/reports/r.json", "out/.hidden", "one/x.json"]) write(f);
      const upload = actions["actions/upload-artifact"]!;
      const download = actions["actions/download-artifact"]!;
      expect(await upload({ name: "shard-1", path: "out/" }, {}, context)).toMatchObject({ failed: false });
      expect(await upload({ name: "shard-2", path: `${context.workspace}/one/x.json` }, {}, context)).toMatchObject({ failed: false });
      expect(await upload({ name: "shard-1", path: "one" }, {}, context)).toMatchObject({ failed: true, log: expect.stringContaining("409 Conflict") });
      expect(await upload({ name: "none", path: "nowhere", "if-no-files-found": "error" }, {}, context)).toMatchObject({ failed: true });
      expect(await upload({ name: "none", path: "nowhere", "if-no-files-found": "ignore" }, {}, context)).toMatchObject({ failed: false });
      expect(await download({ pattern: "shard-*", path: "got" }, {}, context)).toMatchObject({ failed: false, log: "Total of 2 artifact(s) downloaded" });
      const got = (rel: string) => fs.existsSync(path.join(context.workspace, "got", rel));
      expect(["shard-1/a.csv", "shard-1/reports/r.json", "shard-1/.hidden", "shard-2/x.json", "none"].map(got)).toEqual([true, true, false, true, false]);
      expect(await download({ name: "shard-2", path: "named" }, {}, context)).toMatchObject({ failed: false });
      expect(fs.readFileSync(path.join(context.workspace, "named/x.json"), "utf8")).toBe("one/x.json");
      expect(await download({ name: "shard-9" }, {}, context)).toEqual({ failed: true, log: "Unable to download artifact(s): Artifact 'shard-9' not found" });
      await expect(async () => download({ name: "x", "run-id": "1" }, {}, context)).rejects.toThrow("actions/download-artifact: the input run-id is not emulated here");
      await expect(async () => upload({ path: "out/*.csv" }, {}, context)).rejects.toThrow("has a pattern, which is not emulated here");
    } finally {
      await tmp.cleanup();
    }
  });
});
