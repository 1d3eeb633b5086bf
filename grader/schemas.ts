// The JSON files the grader reads and writes, checked against their JSON Schemas: the manifest
// (grader/rubric.json) when a grade starts, a saved report when it is read back. Each schema is
// compiled once; an error names the field that is wrong, in the file's own terms.
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./paths.js";

/** The schema files, by what they describe. */
export const SCHEMA_FILES = {
  rubric: path.join(REPO_ROOT, "grader/rubric.schema.json"),
  report: path.join(REPO_ROOT, "grader/report/report.schema.json"),
} as const;

const compiled = new Map<keyof typeof SCHEMA_FILES, ValidateFunction>();

/** A way `value` does not match its schema: where (a JSON pointer; `onKey` when the place is the key, an unknown one), and what, in the file's terms. */
export interface SchemaProblem {
  pointer: string;
  onKey: boolean;
  /** "deliverables[1] (phase2).kind must be one of "core", "bonus", got "extra"". */
  text: string;
}

/** Throws when `value` does not match the schema `kind`: "<what>: <field> <what is wrong>", one line per problem. */
export function assertMatchesSchema(kind: keyof typeof SCHEMA_FILES, value: unknown, what: string): void {
  const problems = schemaProblems(kind, value);
  if (problems.length > 0) throw new Error(problems.map((p) => `${what}: ${p.text}`).join("\n"));
}

/** Each way `value` does not match the schema `kind`, each once, in the order the schema finds them; none when it matches. */
export function schemaProblems(kind: keyof typeof SCHEMA_FILES, value: unknown): SchemaProblem[] {
  let validate = compiled.get(kind);
  if (!validate) {
    validate = new Ajv2020({ allErrors: true, strict: true }).compile(JSON.parse(fs.readFileSync(SCHEMA_FILES[kind], "utf8")));
    compiled.set(kind, validate);
  }
  if (validate(value)) return [];
  const problems = (validate.errors ?? []).map((e) => describeError(e, value));
  return problems.filter((p, i) => problems.findIndex((q) => q.text === p.text) === i);
}

/** An Ajv error in the file's terms: the field as `deliverables[1].checks[0].points`. */
function describeError(e: ErrorObject, value: unknown): SchemaProblem {
  const field = fieldName(e.instancePath, value);
  const params = e.params as Record<string, unknown>;
  const at = { pointer: e.instancePath, onKey: false };
  if (e.keyword === "required") return { ...at, text: `${field ? `${field} ` : ""}needs "${String(params.missingProperty)}"` };
  if (e.keyword === "additionalProperties") {
    const key = String(params.additionalProperty);
    return { pointer: `${e.instancePath}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`, onKey: true, text: `${field || "the top level"} has an unknown key "${key}"` };
  }
  if (e.keyword === "enum") return { ...at, text: `${field} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}, got ${JSON.stringify(valueAt(e.instancePath, value))}` };
  return { ...at, text: `${field || "the file"} ${e.message ?? "is not valid"}, got ${JSON.stringify(valueAt(e.instancePath, value))}` };
}

/** "/deliverables/1/checks/0/points" as "deliverables[1].checks[0].points", with the id of each array item that has one. */
function fieldName(pointer: string, value: unknown): string {
  let out = "";
  let at: unknown = value;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(at)) {
      const item = at[Number(key)] as { id?: unknown } | undefined;
      out += typeof item?.id === "string" ? `[${key}] (${item.id})` : `[${key}]`;
    } else out += out ? `.${key}` : key;
    at = (at as Record<string, unknown> | undefined)?.[key];
  }
  return out;
}

function valueAt(pointer: string, value: unknown): unknown {
  return pointer
    .split("/")
    .slice(1)
    .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], value);
}
