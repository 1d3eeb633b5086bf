// The start of a value's JSON text, for a story's "returned {...}": what JSON.stringify would
// print, cut short, without printing the rest of a state of megabytes. It takes JSON.stringify's
// steps over plain objects and arrays (toJSON, keys in the object's own order, undefined,
// functions and symbols left out of objects and null in arrays, numbers that are not finite as
// null) and stops once it has more than it shows; a value holding anything else (a boxed
// primitive, a class instance) is printed whole by JSON.stringify itself.

/** Thrown to stop once enough is written. */
const ENOUGH = Symbol("enough");
/** Thrown where only JSON.stringify itself says what it prints. */
const NOT_PLAIN = Symbol("not plain");

/**
 * JSON.stringify(value) cut to `max` characters ("…" last when cut), or undefined where
 * JSON.stringify gives undefined; throws what JSON.stringify throws, except for a cycle (a value
 * whose canonical JSON was made first has none).
 */
export function jsonPreview(value: unknown, max: number): string | undefined {
  try {
    const text = startOfJson(value, max);
    return text === undefined ? undefined : clip(text, max);
  } catch (error) {
    if (error !== NOT_PLAIN) throw error;
    const text = JSON.stringify(value) as string | undefined;
    return text === undefined ? undefined : clip(text, max);
  }
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The start of JSON.stringify(value), at least max + 1 characters of it when it is longer. */
function startOfJson(value: unknown, max: number): string | undefined {
  let out = "";
  const put = (text: string) => {
    out += text;
    if (out.length > max) throw ENOUGH;
  };
  /** What JSON.stringify prints for `raw` under `key`: toJSON applied; throws NOT_PLAIN for an object it does not take apart. */
  const resolve = (key: string, raw: unknown): unknown => {
    let v = raw;
    if ((v !== null && typeof v === "object") || typeof v === "bigint") {
      const toJSON = (v as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === "function") v = toJSON.call(v, key);
    }
    if (v !== null && typeof v === "object") {
      const proto = Object.getPrototypeOf(v);
      if (proto !== null && proto !== Object.prototype && !(proto === Array.prototype && Array.isArray(v))) throw NOT_PLAIN;
    }
    return v;
  };
  const printsNothing = (v: unknown) => v === undefined || typeof v === "function" || typeof v === "symbol";
  const emit = (v: unknown): void => {
    if (v === null || typeof v !== "object") {
      // The first max + 1 code units of a string print as the whole string's start: a surrogate
      // pair cut in two changes only what comes after them. (A bigint throws as JSON.stringify does.)
      return put(JSON.stringify(typeof v === "string" && v.length > max + 1 ? v.slice(0, max + 1) : v));
    }
    if (Array.isArray(v)) {
      put("[");
      for (let i = 0; i < v.length; i++) {
        if (i > 0) put(",");
        const item = resolve(String(i), v[i]);
        if (printsNothing(item)) put("null");
        else emit(item);
      }
      return put("]");
    }
    put("{");
    let first = true;
    for (const key of Object.keys(v)) {
      const item = resolve(key, (v as Record<string, unknown>)[key]);
      if (printsNothing(item)) continue;
      put(`${first ? "" : ","}${JSON.stringify(key)}:`);
      first = false;
      emit(item);
    }
    put("}");
  };
  try {
    const top = resolve("", value);
    if (printsNothing(top)) return undefined;
    emit(top);
  } catch (error) {
    if (error !== ENOUGH) throw error;
  }
  return out;
}
