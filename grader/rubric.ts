// The lab's manifest (grader/rubric.json, checked against grader/rubric.schema.json): each
// deliverable, the student's file it grades and the earlier deliverables it builds on, its checks
// with their points and requirements, and the default seed. Whatever names a deliverable's files
// (the grader, its tests, the README's tables) reads them from here.
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./paths.js";
import { closest } from "./closest.js";
import { JsonTextError, excerpt, parseLocated, type LocatedJson } from "./located-json.js";
import { schemaProblems } from "./schemas.js";
import { DEFAULT_LIMITS, type Limits } from "./sandbox/messages/limits.js";
import { taskMistakes, withTask, type LabTaskSettings } from "./rubric-task.js";

export interface RubricCheck {
  id: string;
  title: string;
  points: number;
  /** What the check asks of the student's code, in Markdown (the README's "what it asks"). */
  asks: string;
  requires?: string[];
}

export interface RubricDeliverable {
  id: string;
  title: string;
  kind: "core" | "bonus";
  enabled: boolean;
  /** The student's file it grades ("runner.ts"); the reference has the same name in solution/. */
  file: string;
  /** Earlier deliverables whose files it runs with ("phase1"): the student's, and the reference's while those fail. */
  buildsOn?: string[];
  /** Points of a deliverable whose checks are not written yet. */
  points?: number;
  checks: RubricCheck[];
}

export interface Rubric {
  seed: number;
  deliverables: RubricDeliverable[];
  /** Limits on the target's code; each one missing from the file is the default. */
  limits: Limits;
  /** The lab task (rubric-task.ts); each key missing from the file is the handout's. */
  task: LabTaskSettings;
}

export const DEFAULT_RUBRIC = path.join(REPO_ROOT, "grader/rubric.json");

/** The deliverables and checks the grader's code defines (grader/checks/index.ts's DELIVERABLES), which the manifest must list exactly. */
export type GraderDefinitions = readonly { id: string; checks: readonly { id: string }[] }[];

/**
 * Reads and validates a rubric file: its JSON, its schema, the ids it refers to and, given
 * `grader`, every deliverable and check against the grader's code, whatever a grade then selects.
 * Throws a ManifestError telling each mistake where it is ("grader/rubric.json:14:62: ...").
 */
export function loadRubric(file = DEFAULT_RUBRIC, opts: { grader?: GraderDefinitions } = {}): Rubric {
  const shown = shownName(file);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ManifestError(`${shown}: cannot read it (${code === "ENOENT" ? "there is no such file" : code === "EISDIR" ? "it is a folder" : code ?? (error as Error).message})`);
  }
  return parseRubric(text, { file: shown, grader: opts.grader });
}

/** A rubric from its text, `file` naming it in messages; see loadRubric. */
export function parseRubric(text: string, opts: { file: string; grader?: GraderDefinitions }): Rubric {
  let json: LocatedJson;
  try {
    json = parseLocated(text);
  } catch (error) {
    if (!(error instanceof JsonTextError)) throw error;
    throw new ManifestError([`${opts.file}:${error.place.line}:${error.place.column}: ${error.problem}`, ...excerpt(text, error.place)].join("\n"));
  }
  const told = (mistakes: Mistake[]) => {
    const placed = mistakes.map((m) => ({ ...m, place: json.placeOf(m.pointer, { key: m.onKey }) ?? { line: 1, column: 1 } }));
    placed.sort((a, b) => a.place.line - b.place.line || a.place.column - b.place.column);
    return new ManifestError(placed.map((m) => `${opts.file}:${m.place.line}:${m.place.column}: ${m.text}`).join("\n"));
  };
  const wrong = schemaProblems("rubric", json.value);
  if (wrong.length > 0) throw told(wrong);
  const rubric = json.value as Omit<Rubric, "limits"> & { limits?: Partial<Limits> };
  const mistakes = [...referenceMistakes(rubric, new Set(opts.grader?.flatMap((d) => d.checks.map((c) => c.id)))), ...taskMistakes(rubric), ...(opts.grader ? graderMistakes(rubric, opts.grader) : [])];
  if (mistakes.length > 0) throw told(mistakes);
  return withTask({ ...rubric, limits: { ...DEFAULT_LIMITS, ...rubric.limits } });
}

/** A mistake of the manifest: the JSON pointer of where it is (`onKey`: its key rather than its value), and what it is. */
interface Mistake {
  pointer: string;
  onKey?: boolean;
  text: string;
}

/**
 * Ids the manifest gives twice, or that name what it does not hold: a check outside its
 * deliverable, `buildsOn` and `requires`. A check `requires` that the grader defines (`defined`)
 * is left to graderMistakes, which says the manifest lacks it (a misspelt id's "did you mean").
 */
function referenceMistakes(rubric: Omit<Rubric, "limits">, defined: ReadonlySet<string>): Mistake[] {
  const mistakes: Mistake[] = [];
  const deliverableAt = new Map<string, number>();
  const checkAt = new Map<string, string>();
  rubric.deliverables.forEach((d, di) => {
    const first = deliverableAt.get(d.id);
    if (first !== undefined) mistakes.push({ pointer: `/deliverables/${di}/id`, text: `the deliverable ${d.id} is listed twice (first as deliverables[${first}])` });
    else deliverableAt.set(d.id, di);
    d.checks.forEach((c, ci) => {
      const pointer = `/deliverables/${di}/checks/${ci}/id`;
      if (!c.id.startsWith(`${d.id}.`)) mistakes.push({ pointer, text: `the check ${c.id} is listed under ${d.id}: its id must start with "${d.id}."` });
      if (checkAt.has(c.id)) mistakes.push({ pointer, text: `the check ${c.id} is listed twice` });
      else checkAt.set(c.id, pointer);
    });
  });
  const deliverableIds = [...deliverableAt.keys()];
  const checkIds = [...checkAt.keys()];
  rubric.deliverables.forEach((d, di) => {
    d.buildsOn?.forEach((earlier, k) => {
      const pointer = `/deliverables/${di}/buildsOn/${k}`;
      const other = rubric.deliverables.find((e) => e.id === earlier);
      if (!other) mistakes.push({ pointer, text: `${d.id} builds on ${earlier}, which is not a deliverable of the rubric${meant(earlier, deliverableIds)}` });
      else if (other === d || other.file === d.file) mistakes.push({ pointer, text: `${d.id} builds on ${earlier}, which grades the same file ${d.file}` });
    });
    d.checks.forEach((c, ci) => {
      c.requires?.forEach((r, k) => {
        if (!checkAt.has(r) && !defined.has(r)) mistakes.push({ pointer: `/deliverables/${di}/checks/${ci}/requires/${k}`, text: `${c.id} requires ${r}, which is not a check of the rubric${meant(r, checkIds)}` });
      });
    });
  });
  return [...mistakes, ...requirementCircles(rubric)];
}

/**
 * Each circle of requirements, once, at the first requirement that closes it: a check in one
 * would be scored only once it passed itself, and a check waiting for a verdict of another
 * deliverable's would wait for one that waits for it.
 */
function requirementCircles(rubric: Omit<Rubric, "limits">): Mistake[] {
  const requires = requirementsByCheck(rubric);
  const told = new Set<string>();
  const mistakes: Mistake[] = [];
  rubric.deliverables.forEach((d, di) =>
    d.checks.forEach((c, ci) =>
      c.requires?.forEach((r, k) => {
        const back = pathBetween(requires, r, c.id);
        if (!back) return;
        const circle = [c.id, ...back];
        const key = [...new Set(circle)].sort().join(" ");
        if (told.has(key)) return;
        told.add(key);
        const chain = circle.slice(0, -1).map((id, i) => (i === 0 ? `${id} requires ${circle[1]}` : `which requires ${circle[i + 1]}`)).join(", ");
        const text = circle.length === 2 ? `${c.id} requires itself, so it could never be scored; remove that requirement` : `${chain}: a circle of requirements, so none of them could ever be scored; remove one of them`;
        mistakes.push({ pointer: `/deliverables/${di}/checks/${ci}/requires/${k}`, text });
      }),
    ),
  );
  return mistakes;
}

/** The shortest chain of requirements from `from` to `to` ([from, ..., to]), or null. */
function pathBetween(requires: ReadonlyMap<string, readonly string[]>, from: string, to: string): string[] | null {
  const previous = new Map<string, string | null>([[from, null]]);
  for (const queue = [from]; queue.length > 0; ) {
    const id = queue.shift()!;
    if (id === to) {
      const chain: string[] = [];
      for (let at: string | null = id; at !== null; at = previous.get(at)!) chain.unshift(at);
      return chain;
    }
    for (const r of requires.get(id) ?? []) if (!previous.has(r)) previous.set(r, id), queue.push(r);
  }
  return null;
}

/**
 * The manifest against the grader's code: each deliverable and check in one and not the other. A
 * check the manifest lists and the grader lacks is told with the check the grader defines that
 * the manifest lacks and whose id is closest, if any (a misspelt or renamed id): once, not twice.
 */
function graderMistakes(rubric: Omit<Rubric, "limits">, grader: GraderDefinitions): Mistake[] {
  const mistakes: Mistake[] = [];
  const listed = new Set(rubric.deliverables.map((d) => d.id));
  const unlistedDeliverables = grader.map((g) => g.id).filter((id) => !listed.has(id));
  const suggested = new Set<string>();
  rubric.deliverables.forEach((d, di) => {
    const defined = grader.find((g) => g.id === d.id);
    if (!defined) {
      const near = closest(d.id, unlistedDeliverables);
      if (near) suggested.add(near);
      mistakes.push({ pointer: `/deliverables/${di}/id`, text: `the rubric lists the deliverable ${d.id}, which the grader does not define${near ? ` (did you mean ${near}?)` : " (grader/checks/index.ts): remove it, or mind its spelling"}` });
      return;
    }
    const listedChecks = new Set(d.checks.map((c) => c.id));
    const unlisted = defined.checks.map((c) => c.id).filter((id) => !listedChecks.has(id));
    const named = new Set<string>();
    d.checks.forEach((c, ci) => {
      if (defined.checks.some((g) => g.id === c.id)) return;
      const near = closest(c.id, unlisted);
      if (near) named.add(near);
      mistakes.push({ pointer: `/deliverables/${di}/checks/${ci}/id`, text: undefinedCheck(c.id, d.id, near) });
    });
    for (const id of unlisted) if (!named.has(id)) mistakes.push({ pointer: `/deliverables/${di}/checks`, onKey: true, text: unlistedCheck(id, d.id) });
  });
  for (const id of unlistedDeliverables) {
    if (!suggested.has(id)) mistakes.push({ pointer: "/deliverables", onKey: true, text: `the grader defines the deliverable ${id}, which the rubric does not list: add it (with "enabled": false to leave it out)` });
  }
  return mistakes;
}

function undefinedCheck(id: string, deliverable: string, near: string | undefined): string {
  return `the rubric lists the check ${id}, which the grader does not define${near ? ` (did you mean ${near}?)` : ` (grader/checks/${deliverable}/): remove it, or mind its spelling`}`;
}

function unlistedCheck(id: string, deliverable: string): string {
  return `the grader defines the check ${id}, which the rubric does not list under ${deliverable}: add it (with "points": 0 to leave it unscored)`;
}

/** " (did you mean phase1.round-trip?)" when one of `known` is that close to `id`, else "". */
function meant(id: string, known: string[]): string {
  const near = closest(id, known);
  return near ? ` (did you mean ${near}?)` : "";
}

/** The rubric file as messages name it: from the current folder when it is inside, else from the repository, else whole (a file the user named). */
function shownName(file: string): string {
  for (const from of [process.cwd(), REPO_ROOT]) {
    const relative = path.relative(from, file);
    if (relative && !relative.startsWith("..") && !path.isAbsolute(relative)) return relative;
  }
  return file;
}

/** The deliverable `id` of the rubric; throws naming it when there is none. */
export function rubricDeliverable(rubric: Rubric, id: string): RubricDeliverable {
  const deliverable = rubric.deliverables.find((d) => d.id === id);
  if (!deliverable) throw new Error(`rubric: there is no deliverable ${id}; known: ${rubric.deliverables.map((d) => d.id).join(", ")}`);
  return deliverable;
}

/** The module names a deliverable compiles: its own file's, and those of the deliverables it builds on ("runner", ["checkpoint"]). */
export function deliverableModules(rubric: Rubric, id: string): { main: string; earlier: string[] } {
  const moduleOf = (d: RubricDeliverable) => d.file.replace(/\.ts$/, "");
  const deliverable = rubricDeliverable(rubric, id);
  return { main: moduleOf(deliverable), earlier: (deliverable.buildsOn ?? []).map((e) => moduleOf(rubricDeliverable(rubric, e))) };
}

/** What each check of the rubric requires, by the check's id (none: an empty list). */
export function requirementsByCheck(rubric: Pick<Rubric, "deliverables">): Map<string, string[]> {
  return new Map(rubric.deliverables.flatMap((d) => d.checks.map((c) => [c.id, c.requires ?? []])));
}

/** A deliverable's points: its checks', or the manifest's own figure for one with no checks yet. */
export function deliverablePoints(d: RubricDeliverable): number {
  return d.checks.length > 0 ? d.checks.reduce((n, c) => n + c.points, 0) : d.points ?? 0;
}

/** The deliverables that grade the student's file `file` ("checkpoint.ts"), in the rubric's order. */
export function deliverablesOfFile(rubric: Rubric, file: string): string[] {
  return rubric.deliverables.filter((d) => d.file === file).map((d) => d.id);
}

/** A mistake in the manifest, or the manifest and the grader's code disagree: said where it is and in their terms, without a stack or a command's usage. */
export class ManifestError extends Error {
  override name = "ManifestError";
}

/**
 * Throws unless the checks the grader's code defines for a deliverable are exactly the manifest's:
 * a check in one and not the other would be graded without points, or never run, without a word.
 * A grade checks the whole manifest when it loads it (loadRubric's `grader`); this holds for a
 * deliverable graded without that.
 */
export function assertChecksMatchManifest(rubric: Rubric, id: string, definedIds: string[]): void {
  const listed = rubricDeliverable(rubric, id).checks.map((c) => c.id);
  const unlisted = definedIds.filter((c) => !listed.includes(c));
  const named = new Set<string>();
  const problems = listed
    .filter((c) => !definedIds.includes(c))
    .map((c) => {
      const near = closest(c, unlisted);
      if (near) named.add(near);
      return undefinedCheck(c, id, near);
    });
  problems.unshift(...unlisted.filter((c) => !named.has(c)).map((c) => unlistedCheck(c, id)));
  if (problems.length > 0) throw new ManifestError(problems.join("\n"));
}

/** Finds a check of the rubric by id. */
export function rubricCheck(rubric: Rubric, id: string): RubricCheck | undefined {
  for (const d of rubric.deliverables) for (const c of d.checks) if (c.id === id) return c;
  return undefined;
}

/** `ids` (deliverables or checks) plus the checks they require, and what those require (their points depend on them). */
export function withRequirements(rubric: Rubric, ids: string[]): string[] {
  const out = new Set(ids);
  const add = (id: string) => {
    const deliverable = rubric.deliverables.find((d) => d.id === id);
    const checks = deliverable ? deliverable.checks : [rubricCheck(rubric, id)].filter((c) => c !== undefined);
    for (const c of checks) for (const r of c.requires ?? []) if (!out.has(r)) out.add(r), add(r);
  };
  for (const id of ids) add(id);
  return [...out];
}
