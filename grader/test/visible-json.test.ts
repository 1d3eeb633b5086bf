// A state that holds a character one cannot see (a no-break space, a zero-width space, a line
// separator, a byte order mark) is shown with that character escaped, both where the grader
// shows a state it wrote (showState) and where it shows a value the target returned (the
// preview): "[[\"\u00a0\"]]" never reads as "[[\" \"]]". Plain spaces and visible characters stay.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { showState, type JsonState } from "../grading/states.js";
import { formatBytes } from "../report/sizes.js";
import { summarizeValue } from "../sandbox/runtime/target/call.js";
import { visibleJson } from "../visible-json.js";

describe("characters one cannot see, in the states a story shows", () => {
  test("a no-break space, a zero-width space, a line separator and a byte order mark are escaped; a space, é and an emoji are not", () => {
    expect(showState([["\u00a0"]])).toBe('[["\\u00a0"]]');
    expect(showState({ a: "x\u200by", b: "\u2028", c: "\ufeff" })).toBe('{"a":"x\\u200by","b":"\\u2028","c":"\\ufeff"}');
    expect(showState({ "a b": "é😀" })).toBe('{"a b":"é😀"}');
  });

  test("the escaped text is JSON of the same value, a character above U+FFFF included", () => {
    const state = { tag: "\u{e0001}", nbsp: "\u00a0 ", sep: "\u2029" };
    const shown = visibleJson(JSON.stringify(state));
    expect(shown).not.toMatch(/[\u00a0\u2029]|\u{e0001}/u);
    expect(JSON.parse(shown)).toEqual(state);
  });

  test("a value the target returned is previewed the same way", () => {
    expect(summarizeValue([["\u00a0"]]).preview).toBe('[["\\u00a0"]]');
    expect(summarizeValue("a b").preview).toBe('"a b"');
  });

  test("a state is shown as escaping its whole JSON text and then cutting it would show it, though only the part shown is escaped", () => {
    // The words as first written: the whole text escaped, then measured.
    const wholeEscaped = (state: JsonState, max: number) => {
      const json = JSON.stringify(state);
      const text = visibleJson(json);
      if (text.length <= max) return text;
      const kind = Array.isArray(state) ? "array" : typeof state === "object" && state ? "object" : typeof state;
      return `${visibleJson(json.slice(0, max - 40))}… (${kind === "object" || kind === "array" ? `an ${kind}` : `a ${kind}`} of ${formatBytes(Buffer.byteLength(json))})`;
    };
    // Mostly seen characters, so that some texts just fit once escaped and some just do not.
    const seen = fc.constantFrom("a", " ", "é", "😀", '"');
    const unseen = fc.constantFrom("\u00a0", "\u200b", "\u2028", "\ufeff", "\u{e0001}");
    const unseenOrNot = fc.oneof({ arbitrary: seen, weight: 30 }, { arbitrary: unseen, weight: 1 });
    const text = fc.array(unseenOrNot, { maxLength: 200, size: "max" }).map((cs) => cs.join(""));
    const state = fc.oneof(text, fc.array(text, { maxLength: 4 }), fc.dictionary(text, text, { maxKeys: 3 }), fc.integer()) as fc.Arbitrary<JsonState>;
    fc.assert(fc.property(state, fc.integer({ min: 41, max: 160 }), (s, max) => {
      expect(showState(s, max)).toBe(wholeEscaped(s, max));
    }), { seed: 7, numRuns: 2000 });
  });

  test("a large state shown cut short keeps no half escape, and counts the bytes of its own JSON", () => {
    const shown = showState("\u00a0".repeat(200), 60);
    expect(shown).toMatch(/^"(\\u00a0)+… \(a string of 402 bytes\)$/);
  });
});
