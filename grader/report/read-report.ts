// Reads a saved JSON report back, checked against grader/report/report.schema.json: what is
// rendered or counted is a report of this grader's shape, never whatever a file holds.
import fs from "node:fs";
import { assertMatchesSchema } from "../schemas.js";
import type { Report } from "./report.js";

/** The report in `file`; throws (ENOENT, a JSON error, or the fields that do not match the schema) when there is none. */
export function readReport(file: string): Report {
  const value: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
  assertMatchesSchema("report", value, "report");
  return value as Report;
}
