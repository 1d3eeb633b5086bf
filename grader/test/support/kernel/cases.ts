// The calls the kernel conformance test makes, each once through Node's own fs and once through
// the recording fs: every function the recorder rebuilds from primitives, with arguments and
// options drawn by fast-check from a fixed seed (the same cases on every run and every Node).
import fc from "fast-check";

export const CASE_SEED = 20261204;

/** What a call writes: its text, and as what it is handed over. */
export interface Data {
  text: "ascii" | "accents" | "empty" | "large";
  as: "string" | "buffer" | "uint8array";
}

/** The options of a writeFile-like call, and how they are handed over: as an object, as an encoding string, or not at all. */
export interface WriteOptions {
  form: "object" | "string" | "none";
  encoding?: "utf8" | "utf-8" | "latin1" | "hex" | "base64";
  flush?: boolean;
  flag?: "w" | "a" | "wx" | "r+" | "a+";
  mode?: number;
}

export type Case =
  | { call: "writeFileSync" | "appendFileSync" | "promises.writeFile" | "promises.appendFile" | "writeFile" | "appendFile"; to: "path" | "fd"; existing: boolean; data: Data; options: WriteOptions }
  | { call: "FileHandle.writeFile"; existing: boolean; openFlag: "w" | "a" | "r+"; data: Data; options: WriteOptions }
  | { call: "copyFileSync"; existing: boolean; excl: boolean; size: number }
  | { call: "cpSync"; existing: boolean; force?: boolean; errorOnExist?: boolean; size: number }
  | { call: "cpSync folder"; existing: boolean; filtered: boolean }
  | { call: "createWriteStream"; existing: boolean; chunks: Data[]; flush?: boolean; flags?: "w" | "a" | "r+"; start?: number }
  | { call: "writeSync"; openFlag: "w" | "a" | "r+" | "a+"; data: Data; encoding?: "utf8" | "latin1" | "hex"; offset?: number; position: number | null }
  | { call: "writevSync"; openFlag: "w" | "a" | "r+"; parts: number; position: number | null }
  | { call: "truncateSync" | "ftruncateSync"; length: number }
  | { call: "mkdirSync"; depth: number; existingDepth: number; mode?: number }
  | { call: "rmSync"; what: "file" | "tree" | "under a file"; force?: boolean }
  | { call: "mkdtempSync" }
  | { call: "renameSync"; existing: boolean }
  | { call: "unlinkSync" };

export type NamedCase = Case & { id: string };

const data = fc.record({ text: fc.constantFrom("ascii", "accents", "empty", "large"), as: fc.constantFrom("string", "buffer", "uint8array") }) as fc.Arbitrary<Data>;
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const writeOptions = fc.record({
  form: fc.constantFrom("object", "object", "string", "none"),
  encoding: maybe(fc.constantFrom("utf8", "utf-8", "latin1", "hex", "base64")),
  flush: maybe(fc.boolean()),
  flag: maybe(fc.constantFrom("w", "a", "wx", "r+", "a+")),
  mode: maybe(fc.constantFrom(0o600, 0o644, 0o666)),
}) as fc.Arbitrary<WriteOptions>;

const WRITE_FILE_CALLS = ["writeFileSync", "appendFileSync", "promises.writeFile", "promises.appendFile", "writeFile", "appendFile"] as const;

const arbitraries: fc.Arbitrary<Case>[] = [
  ...WRITE_FILE_CALLS.map((call) => fc.record({ call: fc.constant(call), to: fc.constantFrom("path", "path", "fd"), existing: fc.boolean(), data, options: writeOptions }) as fc.Arbitrary<Case>),
  fc.record({ call: fc.constant("FileHandle.writeFile"), existing: fc.boolean(), openFlag: fc.constantFrom("w", "a", "r+"), data, options: writeOptions }) as fc.Arbitrary<Case>,
  fc.record({ call: fc.constant("copyFileSync"), existing: fc.boolean(), excl: fc.boolean(), size: fc.constantFrom(0, 5, 70_000) }) as fc.Arbitrary<Case>,
  fc.record({ call: fc.constant("cpSync"), existing: fc.boolean(), force: maybe(fc.boolean()), errorOnExist: maybe(fc.boolean()), size: fc.constantFrom(0, 5, 70_000) }) as fc.Arbitrary<Case>,
  fc.record({ call: fc.constant("cpSync folder"), existing: fc.boolean(), filtered: fc.boolean() }) as fc.Arbitrary<Case>,
  fc.record({ call: fc.constant("createWriteStream"), existing: fc.boolean(), chunks: fc.array(data, { minLength: 0, maxLength: 3 }), flush: maybe(fc.boolean()), flags: maybe(fc.constantFrom("w", "a", "r+")), start: maybe(fc.constantFrom(0, 3)) }) as fc.Arbitrary<Case>,
  fc.record({ call: fc.constant("writeSync"), openFlag: fc.constantFrom("w", "a", "r+", "a+"), data, encoding: maybe(fc.constantFrom("utf8", "latin1", "hex")), offset: maybe(fc.constantFrom(0, 2)), position: fc.constantFrom(null, 0, 4) }) as fc.Arbitrary<Case>,
  fc.record({ call: fc.constant("writevSync"), openFlag: fc.constantFrom("w", "a", "r+"), parts: fc.integer({ min: 1, max: 4 }), position: fc.constantFrom(null, 0, 4) }) as fc.Arbitrary<Case>,
  fc.record({ call: fc.constantFrom("truncateSync", "ftruncateSync"), length: fc.constantFrom(0, 3, 20) }) as fc.Arbitrary<Case>,
  fc.record({ call: fc.constant("mkdirSync"), depth: fc.integer({ min: 1, max: 3 }), existingDepth: fc.integer({ min: 0, max: 3 }), mode: maybe(fc.constantFrom(0o700, 0o755)) }) as fc.Arbitrary<Case>,
  fc.record({ call: fc.constant("rmSync"), what: fc.constantFrom("file", "tree", "under a file"), force: maybe(fc.boolean()) }) as fc.Arbitrary<Case>,
  fc.record({ call: fc.constant("mkdtempSync") }) as fc.Arbitrary<Case>,
  fc.record({ call: fc.constant("renameSync"), existing: fc.boolean() }) as fc.Arbitrary<Case>,
  fc.record({ call: fc.constant("unlinkSync") }) as fc.Arbitrary<Case>,
];

/**
 * The flush cases that matter most, always made whatever fast-check draws: a string with and
 * without an encoding (given as "utf8" or "utf-8"), a Buffer, each with `flush: true`.
 */
const FLUSH_CASES: Case[] = (["writeFileSync", "appendFileSync", "promises.writeFile", "writeFile"] as const).flatMap((call) =>
  [
    { text: "ascii", as: "string", encoding: "utf8" },
    { text: "ascii", as: "string", encoding: "utf-8" },
    { text: "ascii", as: "string", encoding: undefined },
    { text: "ascii", as: "buffer", encoding: "utf8" },
    { text: "large", as: "string", encoding: "utf8" },
  ].map(({ text, as, encoding }) => ({ call, to: "path", existing: false, data: { text, as } as Data, options: { form: "object", encoding, flush: true } as WriteOptions })),
);

/** Every case: the fixed ones, then `perCall` drawn for each kind of call. */
export function conformanceCases({ perCall }: { perCall: number }): NamedCase[] {
  const drawn = arbitraries.flatMap((arb, i) => fc.sample(arb, { seed: CASE_SEED + i, numRuns: perCall }));
  return [...FLUSH_CASES, ...drawn].map((c, i) => ({ ...c, id: `c${i}` }));
}
