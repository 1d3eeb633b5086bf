// The simple commands a target's command line runs, in order, read the way a POSIX shell reads
// them: a program with arguments (`execFileSync("mv", [...])`), or a shell string
// (`execSync("sync a && mv a b")`, `sh -c "..."`) split at `&&`, `||`, `;`, `|` and new lines,
// with quotes, `cd` and output redirections understood. A string that uses more of the shell
// (variables, substitutions, loops) is not read at all: null, and the command is modelled as one.
import path from "node:path";

/** One program run by a command line, with its arguments resolved against the folder it ran in. */
export interface SimpleCommand {
  /** The program's file name ("mv" for "/usr/bin/mv"). */
  program: string;
  args: string[];
  /** Files its output is redirected to (`> file`, `>> file`). */
  outputs: string[];
  /** The folder it runs in (after any `cd` before it). */
  cwd: string;
}

/** How the target invoked the command. */
export type Invocation = { file: string; args: string[]; cwd: string } | { script: string; cwd: string };

const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh"]);

/** The simple commands of an invocation, in the order they run; null when the shell syntax is more than a list of simple commands. */
export function simpleCommands(invocation: Invocation): SimpleCommand[] | null {
  if ("script" in invocation) return parseScript(invocation.script, invocation.cwd);
  const program = path.basename(invocation.file);
  const dashC = invocation.args.indexOf("-c");
  if (SHELLS.has(program) && dashC !== -1 && invocation.args[dashC + 1] !== undefined) return parseScript(invocation.args[dashC + 1]!, invocation.cwd);
  return [{ program, args: invocation.args, outputs: [], cwd: invocation.cwd }];
}

/** Splits a shell string into simple commands; null for syntax this reader does not follow. */
function parseScript(script: string, cwd: string): SimpleCommand[] | null {
  const commands: SimpleCommand[] = [];
  let words: string[] = [];
  let outputs: string[] = [];
  let word: string | null = null;
  let redirect: "out" | "in" | null = null;
  const endWord = () => {
    if (word === null) return;
    if (redirect === "out") outputs.push(word);
    else if (redirect === null) words.push(word);
    redirect = null;
    word = null;
  };
  const endCommand = (): boolean => {
    endWord();
    if (redirect !== null) return false;
    while (words.length > 0 && /^[A-Za-z_]\w*=/.test(words[0]!)) words.shift(); // VAR=value before a program
    if (words.length > 0) {
      const [file, ...args] = words;
      const program = path.basename(file!);
      if (program === "cd") cwd = path.resolve(cwd, args[0] ?? process.env.HOME ?? "/");
      else commands.push({ program, args, outputs, cwd });
    }
    words = [];
    outputs = [];
    return true;
  };
  for (let i = 0; i < script.length; i++) {
    const c = script[i]!;
    if (c === "'") {
      const end = script.indexOf("'", i + 1);
      if (end === -1) return null;
      word = (word ?? "") + script.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let text = "";
      for (i++; i < script.length && script[i] !== '"'; i++) {
        if (script[i] === "$" || script[i] === "`") return null;
        if (script[i] === "\\" && /["\\$`]/.test(script[i + 1] ?? "")) i++;
        text += script[i];
      }
      if (i >= script.length) return null;
      word = (word ?? "") + text;
    } else if (c === "\\") {
      if (script[i + 1] === "\n") i++;
      else word = (word ?? "") + (script[++i] ?? "");
    } else if (c === " " || c === "\t") endWord();
    else if (c === "\n" || c === ";" || c === "|" || c === "&") {
      if (c === "&" && script[i + 1] === ">") return null;
      if ((c === "&" || c === "|") && script[i + 1] === c) i++;
      if (!endCommand()) return null;
    } else if (c === ">" || c === "<") {
      // "2>", "2>&1", ">>": a descriptor number just before belongs to the redirection.
      if (word !== null && !/^\d$/.test(word)) return null;
      const fdWord = word;
      word = null;
      if (script[i + 1] === ">") i++;
      if (script[i + 1] === "&") {
        for (i += 2; /[\d-]/.test(script[i] ?? ""); i++);
        i--;
        continue;
      }
      redirect = c === ">" && fdWord !== "0" ? "out" : "in";
      while (script[i + 1] === " ") i++;
    } else if ("$`(){}*?[".includes(c) || (word === null && "~#!".includes(c))) {
      return null; // variables, substitutions, groups, globs, home folders, comments
    } else word = (word ?? "") + c;
  }
  if (!endCommand()) return null;
  if (commands.some((c) => ["if", "then", "for", "while", "until", "case", "do", "function", "eval", "source", "."].includes(c.program))) return null;
  return commands;
}
