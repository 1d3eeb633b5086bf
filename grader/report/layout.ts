// Lines that fit the terminal: a title with its score at the right, wrapped and never cut; a
// story wrapped with a hanging indent; a command wrapped so that it still pastes as one (a
// backslash ends each line but the last). Widths are the terminal's columns, as string-width
// counts them (colours and wide characters included).
import stringWidth from "string-width";
import wrapAnsi from "wrap-ansi";

/** The widest a scoreboard is, even on a wider terminal: the scores stay where the eye finds them. */
const MOST = 100;
/** The narrowest it lays out for; a narrower terminal wraps what is left itself. */
const LEAST = 40;

/** The width to lay out for: the terminal's columns when the output is one (at most 100), else 80 (piped, or a file). */
export function outputWidth(stream: { isTTY?: boolean; columns?: number }): number {
  return stream.isTTY && stream.columns ? Math.max(LEAST, Math.min(MOST, stream.columns)) : 80;
}

/** Colours on a terminal, off when NO_COLOR is set (not empty), forced on or off by FORCE_COLOR (anything but "0" is on). */
export function wantsColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "") return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  if (env.NO_COLOR) return false;
  return !!stream.isTTY;
}

/** Columns kept at the right of a board for scores: "10/10 (bonus)". */
export const SCORE_COLUMNS = 13;

/**
 * `indent` + `title`, then `score` in the score column, which starts at the same place on every
 * line of a board of `width`; a title too long for its line wraps under itself (under its text,
 * past a mark such as "✓ " given as `mark`), never cut, the score on its last line.
 */
export function titleRow(title: string, score: string, opts: { indent: number; width: number; mark?: string }): string[] {
  const mark = opts.mark ? `${opts.mark} ` : "";
  const markWidth = stringWidth(mark);
  const room = Math.max(10, Math.min(66, opts.width - SCORE_COLUMNS - 1) - opts.indent - markWidth);
  const lines = wrapAnsi(title, room, { hard: true, trim: true }).split("\n");
  const last = lines.pop()!;
  const under = " ".repeat(opts.indent + markWidth);
  const all = [...lines, `${last}${" ".repeat(Math.max(1, room - stringWidth(last) + 1))}${score}`];
  return all.map((l, i) => (i === 0 ? " ".repeat(opts.indent) + mark : under) + l);
}

/**
 * A story's line, wrapped to `width`: at `indent` (plus the line's own leading spaces, as a
 * numbered list has), the lines it wraps into two columns further in.
 */
export function hanging(text: string, opts: { indent: number; width: number }): string[] {
  const own = /^ */.exec(text)![0].length;
  const first = " ".repeat(opts.indent + own);
  const rest = " ".repeat(opts.indent + own + 2);
  const wrapped = wrapAnsi(text.slice(own), Math.max(10, opts.width - rest.length), { hard: true, trim: true }).split("\n");
  return wrapped.map((l, i) => (i === 0 ? first : rest) + l);
}

/** A shell command wrapped at spaces to `width`, each line but the last ending in " \" so that it pastes as one command. */
export function commandLines(prefix: string, command: string, opts: { indent: number; width: number }): string[] {
  const pad = " ".repeat(opts.indent);
  const words = command.split(" ");
  const lines: string[] = [];
  let line = `${pad}${prefix}${words.shift() ?? ""}`;
  for (const word of words) {
    if (stringWidth(`${line} ${word} \\`) > opts.width) {
      lines.push(`${line} \\`);
      line = `${pad}  ${word}`;
    } else line += ` ${word}`;
  }
  return [...lines, line];
}
