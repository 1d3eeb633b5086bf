// The simple commands a target's command line runs, in order, read the way a POSIX shell reads
// them: a program with arguments (`execFileSync("mv", [...])`), or a shell string
// (`execSync("sync a && mv a b")`, `sh -c "..."`) split at `&&`, `||`, `;`, `|` and new lines,
// with quotes, `cd` and output redirections understood. A string that uses more of the shell
// (variables, substitutions, loops, here-documents) is not read at all: null, and the command is
// modelled as one. Where each operator between two commands stands is kept, so that a probe can
// be put there (probe.ts).
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

/** An operator that ends a command of a shell line: where it stands in the script, and how many commands ran before it. */
export interface Operator {
  at: number;
  op: "&&" | "||" | ";" | "\n" | "|" | "&";
  after: number;
}

/** A shell string read: the simple commands it runs, in order, and the operators between them. */
export interface ShellLine {
  script: string;
  commands: SimpleCommand[];
  operators: Operator[];
}

const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh"]);

/** Whether a program is a shell this reader reads the strings of (`sh`, `bash`, ...). */
export function isShellProgram(program: string): boolean {
  return SHELLS.has(program);
}

/** The simple commands of an invocation, in the order they run; null when the shell syntax is more than a list of simple commands. */
export function simpleCommands(invocation: Invocation): SimpleCommand[] | null {
  if (shellScript(invocation) !== undefined) return shellLine(invocation)?.commands ?? null;
  const { file, args, cwd } = invocation as Extract<Invocation, { file: string }>;
  return [{ program: path.basename(file), args, outputs: [], cwd }];
}

/** The shell string an invocation runs, read; null when it runs none (a program called directly) or one this reader does not follow. */
export function shellLine(invocation: Invocation): ShellLine | null {
  const script = shellScript(invocation);
  return script === undefined ? null : parseScript(script, invocation.cwd);
}

/** The string a shell runs for the invocation: the script itself, or the one after `sh -c`; undefined for a program called directly. */
export function shellScript(invocation: Invocation): string | undefined {
  if ("script" in invocation) return invocation.script;
  const dashC = invocation.args.indexOf("-c");
  return SHELLS.has(path.basename(invocation.file)) && dashC !== -1 ? invocation.args[dashC + 1] : undefined;
}

/** Splits a shell string into simple commands; null for syntax this reader does not follow. */
function parseScript(script: string, cwd: string): ShellLine | null {
  const commands: SimpleCommand[] = [];
  const operators: Operator[] = [];
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
      const at = i;
      if ((c === "&" || c === "|") && script[i + 1] === c) i++;
      if (!endCommand()) return null;
      operators.push({ at, op: script.slice(at, i + 1) as Operator["op"], after: commands.length });
    } else if (c === ">" || c === "<") {
      if (c === "<" && script[i + 1] === "<") return null; // a here-document: its lines are not commands
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
  return { script, commands, operators };
}
