// JSON read as JSON.parse reads it, knowing where in the text each value and key is: a mistake in
// a hand-edited file (grader/rubric.json) is told by line and column, in words of its own. The
// engine's own words ("Expected double-quoted property name in JSON at position 732") give an
// offset, or only a quote of the text, and change from one Node version to the next.

/** A place in a text: line and column, both from 1 (a column counts characters, a tab as one). */
export interface Place {
  line: number;
  column: number;
}

/** A text that is not JSON: where, and what is wrong there. */
export class JsonTextError extends Error {
  constructor(
    readonly place: Place,
    readonly problem: string,
  ) {
    super(`${place.line}:${place.column}: ${problem}`);
  }
}

export interface LocatedJson {
  value: unknown;
  /** Where the value at `pointer` (a JSON pointer, "/deliverables/0/checks") starts, or with `key` the key that names it; undefined when the text has no such value. */
  placeOf(pointer: string, opts?: { key?: boolean }): Place | undefined;
}

const COMMENT = 'a comment: JSON has none (the manifest takes a "$comment" key at its top)';

/** Parses `text` as JSON; throws a JsonTextError at the first mistake, or at a key an object holds twice (JSON.parse would keep the last without a word). */
export function parseLocated(text: string): LocatedJson {
  const offsets = new Map<string, { value: number; key?: number }>();
  const placeAt = placer(text);
  let i = 0;
  const fail = (at: number, problem: string): never => {
    throw new JsonTextError(placeAt(at), problem);
  };
  // Where "the file ends" is told: after its last character that is not white space.
  const end = () => text.trimEnd().length;
  const skipSpace = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };

  function value(pointer: string): unknown {
    skipSpace();
    const start = i;
    offsets.set(pointer, { ...offsets.get(pointer), value: start });
    if (i >= text.length) return fail(end(), "the file ends where a value should be");
    const c = text[i]!;
    if (c === "{") return object(pointer);
    if (c === "[") return array(pointer);
    if (c === '"') return string();
    if (c === "-" || (c >= "0" && c <= "9")) return number();
    for (const [word, v] of [["true", true], ["false", false], ["null", null]] as const) {
      if (text.startsWith(word, i) && !/[\w$]/.test(text[i + word.length] ?? "")) return (i += word.length), v;
    }
    if (text.startsWith("//", i) || text.startsWith("/*", i)) return fail(i, COMMENT);
    return fail(i, `expected a value (a string in double quotes, a number, true, false, null, an object or an array), found ${found(text, i)}`);
  }

  function object(pointer: string): Record<string, unknown> {
    const start = i++;
    const out: Record<string, unknown> = {};
    const keys = new Map<string, number>();
    skipSpace();
    if (text[i] === "}") return i++, out;
    let comma: number | undefined;
    for (;;) {
      skipSpace();
      const at = i;
      if (text[i] !== '"') {
        if (text[i] === "}" && comma !== undefined) return fail(comma, 'a comma after the last item: JSON has none before "}"');
        if (i >= text.length) return fail(end(), `the file ends inside the object that starts at line ${placeAt(start).line}: a "}" is missing`);
        if (text[i] === "'") return fail(i, "a key in single quotes: JSON keys are in double quotes");
        if (text.startsWith("//", i) || text.startsWith("/*", i)) return fail(i, COMMENT);
        const word = /^[A-Za-z_$][\w$-]*/.exec(text.slice(i, i + 100))?.[0];
        if (word) return fail(i, `the key ${word} is not in double quotes`);
        return fail(i, `expected a key in double quotes, found ${found(text, i)}`);
      }
      const key = string();
      const first = keys.get(key);
      if (first !== undefined) return fail(at, `the key ${JSON.stringify(key)} is in this object twice (first at line ${placeAt(first).line}); JSON would keep the last`);
      keys.set(key, at);
      skipSpace();
      if (text[i] !== ":") return fail(i, `expected ":" after the key ${JSON.stringify(key)}, found ${found(text, i)}`);
      i++;
      const child = `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
      offsets.set(child, { value: i, key: at });
      // As JSON.parse does: "__proto__" is a key like any other, not the object's prototype.
      Object.defineProperty(out, key, { value: value(child), enumerable: true, writable: true, configurable: true });
      const after = i;
      skipSpace();
      if (text[i] === ",") {
        comma = i++;
        continue;
      }
      if (text[i] === "}") return i++, out;
      if (i >= text.length) return fail(end(), `the file ends inside the object that starts at line ${placeAt(start).line}: a "}" is missing`);
      if (text[i] === '"') return fail(after, "a comma is missing after this value");
      return fail(i, `expected "," or "}" after the value of ${JSON.stringify(key)}, found ${found(text, i)}`);
    }
  }

  function array(pointer: string): unknown[] {
    const start = i++;
    const out: unknown[] = [];
    skipSpace();
    if (text[i] === "]") return i++, out;
    let comma: number | undefined;
    for (;;) {
      skipSpace();
      if (text[i] === "]" && comma !== undefined) return fail(comma, 'a comma after the last item: JSON has none before "]"');
      out.push(value(`${pointer}/${out.length}`));
      const after = i;
      skipSpace();
      if (text[i] === ",") {
        comma = i++;
        continue;
      }
      if (text[i] === "]") return i++, out;
      if (i >= text.length) return fail(end(), `the file ends inside the array that starts at line ${placeAt(start).line}: a "]" is missing`);
      if (/["{[\d-]/.test(text[i]!)) return fail(after, "a comma is missing after this item");
      return fail(i, `expected "," or "]" after an item of the array, found ${found(text, i)}`);
    }
  }

  function string(): string {
    const start = i++;
    for (;;) {
      if (i >= text.length) return fail(start, 'a string that never ends: its closing " is missing');
      const c = text[i]!;
      if (c === '"') break;
      if (c === "\n" || c === "\r") return fail(start, 'a string that does not end on its line: its closing " is missing (a line break inside a string is written \\n)');
      if (c < " ") return fail(i, "a tab or another control character inside a string: write it as an escape (\\t, \\n, \\u0000)");
      if (c === "\\") {
        const escape = text[i + 1] ?? "";
        const known = escape === "u" ? /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)) : escape !== "" && '"\\/bfnrt'.includes(escape);
        if (!known) {
          return fail(i, `${text.slice(i, escape === "u" ? i + 6 : i + 2)} is not an escape JSON knows (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)`);
        }
        i += escape === "u" ? 6 : 2;
        continue;
      }
      i++;
    }
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  }

  function number(): number {
    const token = /^[-+\w.]+/.exec(text.slice(i, i + 100))![0];
    if (!/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(token)) return fail(i, `${token} is not a number JSON can hold (no leading zero, no "+", digits on both sides of a ".")`);
    i += token.length;
    return Number(token);
  }

  if (text.trim() === "") return fail(0, "the file is empty");
  const parsed = value("");
  skipSpace();
  if (i < text.length) fail(i, `more after the end of the JSON value: ${found(text, i)}`);
  return {
    value: parsed,
    placeOf: (pointer, opts = {}) => {
      const at = offsets.get(pointer);
      const offset = opts.key ? at?.key : at?.value;
      return offset === undefined ? undefined : placeAt(offset);
    },
  };
}

/** The line of `text` at `place`, after its number, and a caret under the place (none for a blank line): a long line is cut around it. */
export function excerpt(text: string, place: Place): string[] {
  const MOST = 100;
  const whole = (text.split(/\r?\n/)[place.line - 1] ?? "").replace(/\t/g, " ");
  if (whole.trim() === "") return [];
  let from = 0;
  if (whole.length > MOST) from = Math.max(0, Math.min(place.column - 1 - 60, whole.length - MOST));
  const head = from > 0 ? "…" : "";
  const tail = from + MOST < whole.length ? "…" : "";
  const shown = `${head}${whole.slice(from, from + MOST)}${tail}`.trimEnd();
  const number = String(place.line);
  return [`  ${number} | ${shown}`, `  ${" ".repeat(number.length)} | ${" ".repeat(place.column - 1 - from + head.length)}^`];
}

/** Offsets of `text` as places, by a search over where its lines start. */
function placer(text: string): (offset: number) => Place {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  };
}

/** What is at `i`, as a message quotes it: a word whole ("True"), another character alone ("'"), or the end. */
function found(text: string, i: number): string {
  if (i >= text.length) return "the end of the file";
  const word = /^[\w$]+/.exec(text.slice(i, i + 40))?.[0];
  const c = word ?? String.fromCodePoint(text.codePointAt(i)!);
  if (/^[\p{L}\p{N}\p{P}\p{S}]+$/u.test(c)) return JSON.stringify(c);
  return `the character U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}
