// The end of a child's output (sandbox/supervisor/tail.ts): a character split between two chunks
// of a stream stays one character, even with another stream's chunks between them.
import { expect, test } from "vitest";
import { Tail } from "../sandbox/supervisor/tail.js";

test("in characters, a two-byte character split between two chunks of each of two interleaved streams is kept whole", () => {
  const tail = new Tail(100, "chars");
  const [e1, e2] = [Buffer.from("é").subarray(0, 1), Buffer.from("é").subarray(1)];
  tail.add(Buffer.concat([Buffer.from("a"), e1]), "stdout");
  tail.add(Buffer.concat([Buffer.from("b"), e1]), "stderr");
  tail.add(Buffer.concat([e2, Buffer.from("c")]), "stdout");
  tail.add(Buffer.concat([e2, Buffer.from("d")]), "stderr");
  expect(tail.text()).toBe("abécéd");
  expect(tail.total).toBe(8);
});

test("in bytes, only the last bytes are kept, and the total counts all of them", () => {
  const tail = new Tail(4);
  for (const piece of ["abc", "def", "gh"]) tail.add(Buffer.from(piece));
  expect(tail.text()).toBe("efgh");
  expect(tail.total).toBe(8);
});
