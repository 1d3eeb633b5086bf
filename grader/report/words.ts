// Words every rendering of a report shares.

/** "1 crash state", "1,810 crash states". */
export function crashStates(n: number): string {
  return `${n.toLocaleString("en-US")} crash state${n === 1 ? "" : "s"}`;
}
