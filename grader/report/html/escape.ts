// Escaping for the HTML report: every text that comes from a report (a story holds whatever the
// student's code printed) goes through here before it reaches the page.

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** `text` safe as HTML text or as a quoted attribute's value (in HTML and in inline SVG alike). */
export function esc(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** A number as the report's other renderings show it: "1,810". */
export function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** "1 byte", "10 bytes". */
export function bytesWord(n: number): string {
  return `${count(n)} byte${n === 1 ? "" : "s"}`;
}
