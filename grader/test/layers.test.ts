// The grader's layers, read from its import graph: no cycles, the crash engine at the bottom, the
// concurrency engine below the deliverables' checks, and the code that runs in the sandbox's
// child process apart from the grader's side. A rule holds for everything a file reaches through
// its imports (`import type` too), not only for what it names itself.
import { describe, expect, test } from "vitest";
import { REPO_ROOT } from "../paths.js";
import { chainsFrom, importCycles, importGraph, sourceFiles } from "./support/import-graph.js";

/**
 * A layering rule: no file `from` matches may reach, through its imports, a file `mustNotImport`
 * matches, except the files in `except` (each with the reason it is allowed). A pattern is a file
 * ("grader/sandbox/host.ts") or a folder and everything below it ("grader/crash/**"); every
 * pattern must match a file, so that a rule cannot quietly stop applying when files move.
 */
interface LayerRule {
  /** Who the rule is about, in a few words: the start of the test's title. */
  layer: string;
  from: string[];
  mustNotImport: string[];
  why: string;
  except?: { file: string; why: string }[];
}

/** The sandbox's code that runs in its child process, beside the target's: the runtime, the fs and exec it hands the target, git's environment. */
const CHILD_SIDE = ["grader/sandbox/runtime/**", "grader/sandbox/interposition/**", "grader/sandbox/git/**"];

/** The sandbox's code that runs in the grader's process: it builds, starts, feeds and watches the child, and lends it its user. */
const GRADER_SIDE_OF_SANDBOX = ["grader/sandbox/supervisor/**", "grader/sandbox/identity/target-user.ts", "grader/sandbox/identity/ids.ts"];

/** The rules, by layer: the one place to edit when files move. */
const RULES: LayerRule[] = [
  // The crash engine: the trace model, crash points, replay, power cuts and their words.
  {
    layer: "the crash engine",
    from: ["grader/crash/**"],
    mustNotImport: ["grader/sandbox/**", "grader/checks/**", "grader/grading/**", "grader/concurrency/**"],
    why: "the crash engine is the bottom layer: the sandbox records traces in its model, the checks cut and judge them",
  },
  // The contract: what a check's verdict, finding, picture and measurements are, and the crash count a running check tells.
  {
    layer: "the contract between grading and reporting",
    from: ["grader/contract/**"],
    // A finding holds what a call of the target's gave, as the sandbox's messages say it (grader/sandbox/messages/): data, as the report reads it.
    mustNotImport: ["grader/crash/**", ...CHILD_SIDE, ...GRADER_SIDE_OF_SANDBOX, "grader/concurrency/**", "grader/grading/**", "grader/checks/**", "grader/report/**", "grader/cli/**", "grader/tools/**"],
    why: "grading writes verdicts and reporting reads them: the types both hold to are a floor below both, which imports neither",
    except: [{ file: "grader/crash/model.ts", why: "a finding holds a crash as the crash engine, the bottom layer, records it: a trace, a cut, the disk it left (types that import nothing)" }],
  },
  // The report: a pure function of the verdicts and the rubric, rendered.
  {
    layer: "the report",
    from: ["grader/report/**"],
    // The sandbox's messages (its limits and their words, in grader/sandbox/messages/) are data the rubric holds too.
    mustNotImport: ["grader/grading/**", "grader/checks/**", "grader/concurrency/**", ...CHILD_SIDE, ...GRADER_SIDE_OF_SANDBOX, "grader/cli/**"],
    why: "a report is made from the verdicts (grader/contract/), never from how they were graded: no import runs back up to the code that grades",
  },
  // The concurrency engine: the orders of the writers' calls, and one run in a chosen order.
  {
    layer: "the concurrency engine",
    from: ["grader/concurrency/**"],
    mustNotImport: ["grader/checks/**"],
    why: "the deliverables' checks use the concurrency engine, never the other way round; the words they share are in grader/grading/",
  },
  // The sandbox's two sides: its folders say which process each file runs in.
  {
    layer: "the code that runs in the sandbox's child process",
    from: CHILD_SIDE,
    mustNotImport: [...GRADER_SIDE_OF_SANDBOX, "grader/grading/**", "grader/checks/**", "grader/concurrency/**", "grader/report/**", "grader/cli/**", "grader/tools/**"],
    why: "code that runs inside the child process, beside the target's, must not carry the grader's side into it",
  },
];

/** The grader's and the lab's files; the fixtures are targets, each bundled on its own with the lab's files it imports. */
const FILES = sourceFiles(REPO_ROOT, ["grader", "lab"], ["grader/fixtures"]);
const GRAPH = importGraph(REPO_ROOT, FILES);

function matches(pattern: string, file: string): boolean {
  return pattern.endsWith("/**") ? file.startsWith(pattern.slice(0, -2)) : file === pattern;
}

/**
 * Each import that breaks `rule`, once: "grader/crash/x.ts imports grader/checks/y.ts", followed,
 * when the importing file is reached from the rule's files through others, by the shortest chain.
 */
function breaches(rule: LayerRule): string[] {
  const excepted = new Set((rule.except ?? []).map((e) => e.file));
  const forbidden = (file: string) => rule.mustNotImport.some((p) => matches(p, file)) && !excepted.has(file);
  const shortest = new Map<string, string[]>();
  for (const start of FILES.filter((f) => rule.from.some((p) => matches(p, f)))) {
    for (const chain of chainsFrom(GRAPH, start, forbidden)) {
      const edge = chain.slice(-2).join(" imports ");
      if (!shortest.has(edge) || shortest.get(edge)!.length > chain.length) shortest.set(edge, chain);
    }
  }
  return [...shortest].map(([edge, chain]) => (chain.length === 2 ? edge : `${edge} (reached as ${chain.join(" -> ")})`)).sort();
}

/** "grader/crash/", "grader/sandbox/{client.ts, watchdog.ts}": patterns as a title shows them, files grouped by folder. */
function showPatterns(patterns: readonly string[]): string {
  const groups: { folder: string; names: string[] }[] = [];
  for (const pattern of patterns) {
    if (pattern.endsWith("/**")) {
      groups.push({ folder: pattern.slice(0, -2), names: [] });
      continue;
    }
    const cut = pattern.lastIndexOf("/") + 1;
    const last = groups.at(-1);
    if (last && last.names.length > 0 && last.folder === pattern.slice(0, cut)) last.names.push(pattern.slice(cut));
    else groups.push({ folder: pattern.slice(0, cut), names: [pattern.slice(cut)] });
  }
  const shown = groups.map((g) => (g.names.length === 0 ? g.folder : g.names.length === 1 ? g.folder + g.names[0] : `${g.folder}{${g.names.join(", ")}}`));
  return shown.length === 1 ? shown[0]! : `${shown.slice(0, -1).join(", ")} or ${shown.at(-1)}`;
}

function title(rule: LayerRule): string {
  return `${rule.layer} (${showPatterns(rule.from)}) imports nothing, even through other files, from ${showPatterns(rule.mustNotImport)}`;
}

describe("the grader's layers", () => {
  test("no import cycles anywhere in grader/ and lab/", () => {
    const cycles = importCycles(GRAPH).map((c) => c.join(" -> "));
    expect(cycles, `import cycles:\n  ${cycles.join("\n  ")}`).toEqual([]);
  });

  test.each(RULES.map((rule) => [title(rule), rule] as const))("%s", (_title, rule) => {
    const broken = breaches(rule);
    expect(broken, `${rule.why}, but:\n  ${broken.join("\n  ")}`).toEqual([]);
  });

  test("every pattern of the rule table matches a file", () => {
    const patterns = new Set(RULES.flatMap((rule) => [...rule.from, ...rule.mustNotImport]));
    const unmatched = [...patterns].filter((pattern) => !FILES.some((f) => matches(pattern, f)));
    expect(unmatched, `patterns that match no file (after a move, edit RULES):\n  ${unmatched.join("\n  ")}`).toEqual([]);
  });

  test("every exception in the rule table is still reached from its rule's files", () => {
    const stale = RULES.flatMap((rule) => {
      const from = FILES.filter((f) => rule.from.some((p) => matches(p, f)));
      return (rule.except ?? []).filter(({ file }) => !from.some((f) => chainsFrom(GRAPH, f, (t) => t === file).length > 0)).map(({ file }) => file);
    });
    expect(stale, `exceptions no file of their rule reaches (moved, or no longer imported: update or remove them):\n  ${stale.join("\n  ")}`).toEqual([]);
  });
});
