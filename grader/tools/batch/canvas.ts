// The gradebook as Canvas's gradebook import reads it (<name>-canvas.csv, written with a roster
// map). Canvas takes the first columns as the student's (Student, ID, SIS User ID, SIS Login ID,
// Section, in that order; it checks that the header starts with Student and ID and that Section
// ends them) and every column after them as an assignment: one named as an existing assignment
// fills it, any other name makes a new one. It finds each row's student by ID (Canvas's own
// number), else by SIS User ID, else by SIS Login ID, else by name. A "Points Possible" row gives
// a new assignment its points.
import type { Row } from "./gradebook.js";
import { csvField } from "./gradebook.js";
import type { IdColumn } from "./roster-map.js";

/** The assignment column's name: rename it to an existing assignment's to fill that one instead. */
export const CANVAS_ASSIGNMENT = "Checkpoint lab";

/**
 * The rows Canvas can take: each graded row with a student id, its core score under the
 * assignment column, the id in SIS Login ID when the roster map's ids are emails and in SIS User
 * ID otherwise. Error rows and rows without an id are left out: an empty cell would clear a score
 * Canvas has.
 */
export function canvasCsv(rows: Row[], idColumn: IdColumn): string {
  const graded = rows.filter((r) => !r.error && r.report && r.studentId);
  const possible = Math.max(0, ...graded.map((r) => r.report!.maxScore));
  const lines = [
    ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", CANVAS_ASSIGNMENT],
    ["Points Possible", "", "", "", "", String(possible)],
    ...graded.map((r) => ["", "", idColumn === "email" ? "" : r.studentId!, idColumn === "email" ? r.studentId! : "", "", String(r.report!.score)]),
  ];
  return lines.map((line) => line.map(csvField).join(",") + "\r\n").join("");
}
