// File names as messages show them: the same from run to run.

/** Hides process ids and random parts of temp names, so messages repeat from run to run. */
export function normaliseName(name: string): string {
  return name.replace(/[0-9a-f]{8,}|[0-9a-z]{6,}(?=\.tmp|$)|\d{4,}/gi, (m) => (/^[a-z]+$/i.test(m) ? m : "*"));
}
