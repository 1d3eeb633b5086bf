// The words of a command line, as the grader's commands read them: node:util's parseArgs splits
// them (its tokens), and each command says what is wrong in its own words, with `valueOf` ("--x
// needs a value") and `unknownOption`.
// Not parseArgs' strict mode: it refuses a value that starts with "-" (`--target -x`), which these
// commands take, and its errors are worded otherwise. Nor its "--": to these commands "--" is a
// word like any other, an option none of them knows.
import { parseArgs } from "node:util";
import { closest } from "../closest.js";

/** The options a command declares, by name: `target` is `--target`; `short: "h"` makes `-h` the same option. */
export type Options = Record<string, { type: "string" | "boolean"; short?: string }>;

/** A declared option as written: `--target x` (its value the next argument, whatever it is), `-h`, or `--target=x`. */
export interface OptionWord {
  kind: "option";
  /** The declared name: "target". */
  name: string;
  /** The option as written, without a value: "--target", "-h". */
  flag: string;
  /** After "=", or the next argument for an option that takes a value (undefined at the end). */
  value: string | undefined;
  /** Whether the value came after "=". */
  inline: boolean;
  arg: string;
  /** Where in the arguments the word starts. */
  index: number;
}

/** One argument: a declared option; any other that starts with "-" (an option not declared, a group of short options such as "-hx", "-", "--"); or a positional one. */
export type Word = OptionWord | { kind: "unknown"; arg: string; index: number } | { kind: "positional"; arg: string; index: number };

/** Reads `argv` into words, one per argument (an option's value, when it is the next argument, is part of the option's). `inline` accepts `--name=value`; without it, such an argument is unknown. */
export function readWords(argv: string[], options: Options, { inline = false } = {}): Word[] {
  const words: Word[] = [];
  let from = 0;
  while (from < argv.length) {
    const { tokens } = parseArgs({ args: argv.slice(from), options, strict: false, allowPositionals: true, tokens: true });
    let next = argv.length;
    let last = -1;
    for (const token of tokens) {
      const index = from + token.index;
      if (token.kind === "option-terminator") {
        // What follows "--" is read as words again, not all taken as positional. A "-" inside a
        // group of short options ("-a-b") is taken for "--" too, and what follows it numbered
        // wrongly: the group is one word, read already, and the words after it are read again.
        if (index !== last) words.push({ kind: "unknown", arg: argv[index]!, index });
        next = index + 1;
        break;
      }
      // The later letters of a group of short options: the group is one word, already read.
      if (index === last) continue;
      last = index;
      const arg = argv[index]!;
      const asWritten = token.kind === "option" && Object.hasOwn(options, token.name) && arg === (token.inlineValue ? `${token.rawName}=${token.value}` : token.rawName);
      if (token.kind === "option" && asWritten && (inline || !token.inlineValue)) {
        words.push({ kind: "option", name: token.name, flag: token.rawName, value: token.value, inline: token.inlineValue === true, arg, index });
      } else words.push(arg.startsWith("-") ? { kind: "unknown", arg, index } : { kind: "positional", arg, index });
    }
    from = next;
  }
  return words;
}

/** The value of an option that takes one; one that starts with "--" (not after "=") is taken for a forgotten value. */
export function valueOf(word: Pick<OptionWord, "flag" | "value" | "inline">): string {
  if (word.value === undefined || (!word.inline && word.value.startsWith("--"))) throw new Error(`${word.flag} needs a value`);
  return word.value;
}

/** "unknown option "--onyl" (did you mean --only?)": the suggestion when one declared option is close to what was written. */
export function unknownOption(arg: string, options?: Options): Error {
  return new Error(`unknown option ${JSON.stringify(arg)}${options ? hint(arg, options) : ""}`);
}

/** What the user may have meant: an option written with "=" where this command takes none, or the option a typo is closest to. */
function hint(arg: string, options: Options): string {
  if (!arg.startsWith("--")) return "";
  const [written = "", ...rest] = arg.slice(2).split("=");
  const declared = Object.hasOwn(options, written) ? options[written] : undefined;
  if (declared && rest.length > 0) return declared.type === "boolean" ? ` (--${written} takes no value)` : ` (give its value after a space: --${written} ${rest.join("=")})`;
  const near = written ? closest(written, Object.keys(options)) : undefined;
  return near ? ` (did you mean --${near}?)` : "";
}

/**
 * What a command prints when it cannot start: "<command>: <message>", then its usage when the
 * mistake is in its command line. A mistake in the manifest it read (a ManifestError, which says
 * the file, line and column) is told alone: the usage would only bury it.
 */
export function cannotStart(command: string, error: unknown, usage: string): string {
  const said = `${command}: ${error instanceof Error ? error.message : String(error)}`;
  return error instanceof Error && error.name === "ManifestError" ? said : `${said}\n\n${usage}`;
}

/** Usage lines: the flags in one column as wide as the widest, each text beside its flag, wrapped to 80 columns under its own column. */
export function usageLines(rows: [flag: string, text: string][]): string {
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 4;
  return rows.map(([flag, text]) => `  ${flag.padEnd(width - 2)}${wrapWords(text, 80 - width).join(`\n${" ".repeat(width)}`)}`).join("\n");
}

/** `text` cut into lines of at most `width` characters, between words (a longer word has a line of its own). */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > width) lines.push(line), (line = word);
    else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}
