// Reads a saved JSON report back, checked against grader/report/report.schema.json: what is
// rendered or counted is a report of this grader's shape, never whatever a file holds.
import fs from "node:fs";
import { assertMatchesSchema } from "../schemas.js";
import { SCHEMA_VERSION, type Report } from "./report.js";

/** The report in `file`; throws (ENOENT, a JSON error, an older or newer schemaVersion, or the fields that do not match the schema) when there is none. */
export function readReport(file: string): Report {
  const value: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
  // A report of another version is told as such, rather than as the fields its shape lacks.
  const version = (value as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === "number" && version !== SCHEMA_VERSION) {
    throw new Error(`report: schemaVersion ${version} was written by ${version < SCHEMA_VERSION ? "an older" : "a newer"} grader; this one reads ${SCHEMA_VERSION}: grade again to write it`);
  }
  assertMatchesSchema("report", value, "report");
  return value as Report;
}
