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

/** Throws when `value` does not match the schema `kind`: "<what>: <field> <what is wrong>", one line per problem. */
export function assertMatchesSchema(kind: keyof typeof SCHEMA_FILES, value: unknown, what: string): void {
  let validate = compiled.get(kind);
  if (!validate) {
    validate = new Ajv2020({ allErrors: true, strict: true }).compile(JSON.parse(fs.readFileSync(SCHEMA_FILES[kind], "utf8")));
    compiled.set(kind, validate);
  }
  if (validate(value)) return;
  throw new Error(describeErrors(validate.errors ?? [], value).map((line) => `${what}: ${line}`).join("\n"));
}

/** Ajv's errors in the file's terms: the field as `deliverables[1].checks[0].points`, each problem once. */
function describeErrors(errors: ErrorObject[], value: unknown): string[] {
  const lines = errors.map((e) => {
    const field = fieldName(e.instancePath, value);
    const params = e.params as Record<string, unknown>;
    if (e.keyword === "required") return `${field ? `${field} ` : ""}needs "${String(params.missingProperty)}"`;
    if (e.keyword === "additionalProperties") return `${field || "the top level"} has an unknown key "${String(params.additionalProperty)}"`;
    if (e.keyword === "enum") return `${field} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}, got ${JSON.stringify(valueAt(e.instancePath, value))}`;
    return `${field || "the file"} ${e.message ?? "is not valid"}, got ${JSON.stringify(valueAt(e.instancePath, value))}`;
  });
  return [...new Set(lines)];
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
