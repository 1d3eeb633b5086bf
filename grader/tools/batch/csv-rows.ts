// Reads CSV text (RFC 4180: quoted fields, doubled quotes, line breaks inside quotes) as a
// spreadsheet saves it: CRLF or LF line ends, a UTF-8 byte-order mark (Excel writes one) dropped.

/** One line of the file: its cells and its 1-based line number (where it starts). */
export interface CsvRow {
  cells: string[];
  line: number;
}

/** The rows of `text`, blank lines left out; throws, naming the line, on a quote left open. */
export function csvRows(text: string): CsvRow[] {
  const rows: CsvRow[] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let start = 1;
  const end = () => {
    cells.push(cell);
    if (cells.length > 1 || cells[0]!.trim() !== "") rows.push({ cells, line: start });
    cells = [];
    cell = "";
  };
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === "\n") line++;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") cells.push(cell), (cell = "");
    else if (c === "\n" || (c === "\r" && body[i + 1] === "\n")) {
      if (c === "\r") i++, line++;
      end();
      start = line;
    } else cell += c;
  }
  if (quoted) throw new Error(`line ${start}: a quoted field is never closed`);
  if (cell !== "" || cells.length > 0) end();
  return rows;
}
