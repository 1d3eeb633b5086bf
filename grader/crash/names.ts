// File names as messages show them: the same from run to run.

/** What the grader knows of the names' makers: the ids of the real processes that ran the target. */
export interface KnownIds {
  /** Process ids the target saw as `process.pid` (a real process's id can be any length: 3 digits once ids wrap). */
  pids?: ReadonlyArray<number | null>;
}

/** Words run together ("previousState", "BackupFile"): a student's name, never a random part. */
const CAMEL_CASE = /^[a-z]*(?:[A-Z][a-z]+)+$/;

/**
 * Hides process ids and random parts of temp names, so messages repeat from run to run. The ids
 * of real processes are replaced where they stand as a number of their own; a simulated process's
 * id (4001 and up), a time or a random part is hidden by its shape.
 */
export function normaliseName(name: string, known: KnownIds = {}): string {
  // Shapes first: a random part that happens to hold the id's digits is hidden whole, as always.
  // A UUID (randomUUID) is hidden whole: its groups of four may be all letters, which alone are kept.
  // A base64url part of its own (randomBytes(8).toString("base64url"), a nanoid: after a dot,
  // before ".tmp" or the end) is hidden whole, dashes and all, when it mixes capitals and small
  // letters, as all but a few in a hundred do: words ("in-progress", "previousState"), digits and
  // dashes ("json-4001-1-1765...") are the student's own, and their numbers are hidden below.
  const shaped = name
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "*")
    .replace(/(?<=^|[./])[\w-]{10,}(?=\.tmp$|$)/g, (m) => (/[A-Z]/.test(m) && /[a-z]/.test(m) && !CAMEL_CASE.test(m) ? "*" : m))
    .replace(/[0-9a-f]{8,}|[0-9a-z]{6,}(?=\.tmp|$)|\d{4,}/gi, (m) => (/^[a-z]+$/i.test(m) ? m : "*"));
  return (known.pids ?? []).filter((pid) => pid !== null).reduce((text, pid) => text.replace(new RegExp(`(?<![0-9])${pid}(?![0-9])`, "g"), "*"), shaped);
}

/** `text` (a target's error message) with each file name it quotes ('checkpoint.json.4001.tmp') spelt as normaliseName spells it ('checkpoint.json.*.tmp'). */
export function quotedNamesNormalised(text: string): string {
  return text.replace(/'([^'\n]+)'/g, (_, name: string) => `'${normaliseName(name)}'`);
}
