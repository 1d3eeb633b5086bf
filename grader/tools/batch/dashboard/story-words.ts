// A failure story's words reduced to what two students with the same bug share. Stories hold
// what varies from student to student for one bug: the states fast-check chose, byte counts and
// JSON positions, step and process numbers, temp names, the lead-in that depends on how far the
// code got ("loaded, then tried to write a new state:" or "tried to write again the state it was
// writing:"). What stays is the judged outcome: who did what ("loadCheckpoint threw SyntaxError",
// "atomicCheckpoint threw Error (EEXIST)", "loadCheckpoint returned null").

/** A value a story shortened ("{\"kind\":\"large\",\"ite… (an object of 9.8 KiB)"): its size and kind go, its opening stays (a best effort: it may hold spaces). */
const SHORTENED = /[^\s(]*… \((an?) (\w+) of [\d.]+ (?:bytes|KiB|MiB)\)/g;

/** Errors whose message depends on the data (a JSON position, a property name): only their name is kept. */
const BUILT_IN_ERRORS = new Set(["SyntaxError", "TypeError", "RangeError", "ReferenceError", "EvalError", "URIError", "AggregateError"]);

/** The story's verbs for an outcome, as they follow the call that had it: "loadCheckpoint threw ...". */
const OUTCOME_VERB = /\b(threw|returned|printed)\b/;

/**
 * `text` with what varies between students hidden: a shortened value as "…", each quoted string
 * as "…" (temp names, file bytes, state fields), each number as # and a list of numbers as one #,
 * a list of paths or of numbers in brackets as one […], white space as single spaces.
 */
export function plainWords(text: string): string {
  return text
    .replace(SHORTENED, "… ($1 $2)")
    .replace(/"(?:[^"\\\n]|\\.)*"/g, '"…"')
    .replace(/\d+(?:[.,]\d+)*/g, "#")
    .replace(/#(?:(?:,? and |, )#)+/g, "#")
    // A path or list of them ["notes",0,"text"], ["chain"]: as many as fast-check's data had.
    .replace(/\[(?:"…"|#|,| )*\]/g, "[…]")
    .replace(/\[…\](?:(?:,? and |, )\[…\])+/g, "[…]")
    .replace(/\s+/g, " ")
    .trim();
}

/** Plain words with the word after each # in the singular ("# commit" for "1 commit" and "9 commits"): what a key compares. */
export function foldPlurals(plain: string): string {
  return plain.replace(/# ([a-z]+)/g, (_, word: string) => `# ${singular(word)}`);
}

/** Words ending in "s" that are no plural ("element # is not"). */
const NOT_PLURAL = new Set(["is", "was", "has", "does", "as", "its", "this", "us", "yes", "his", "plus", "less"]);

/** "commits" as "commit", "processes" as "process"; "process" and "is" stay. */
function singular(word: string): string {
  if (NOT_PLURAL.has(word)) return word;
  if (word.endsWith("sses")) return word.slice(0, -2);
  return word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word;
}

/**
 * The line of a story that judges: the last that says what was expected ("; expected"), else the
 * last with an outcome (threw, returned, printed), else the last; never a closing question (the
 * disk-fault stories end with one, the same for every student).
 */
export function verdictLine(message: string): string {
  const lines = message.split("\n").map((l) => l.trim()).filter((l) => l && !l.endsWith("?"));
  const last = (test: (l: string) => boolean) => [...lines].reverse().find(test);
  return last((l) => l.includes("; expected")) ?? last((l) => OUTCOME_VERB.test(plainWords(l))) ?? lines.at(-1) ?? "";
}

/**
 * What a failure story says went wrong, the same for two students with the same bug: the call
 * and its outcome from the verdict line ("loadCheckpoint threw SyntaxError", "atomicCheckpoint
 * threw Error (EEXIST)", "a writer's atomicCheckpoint threw Error (ENOENT)", "loadCheckpoint
 * returned {…}"), or the verdict line's plain words when it names no outcome.
 */
export function outcomeOf(message: string): string {
  const judged = verdictLine(message).split("; expected")[0]!;
  // Quoted strings go first, so that a verb inside one (a state's text) is never taken for the story's.
  const plain = judged.replace(SHORTENED, "… ($1 $2)").replace(/"(?:[^"\\\n]|\\.)*"/g, '"…"');
  const verb = OUTCOME_VERB.exec(plain);
  if (!verb) return judgement(plainWords(judged));
  const before = plain.slice(0, verb.index);
  const after = plain.slice(verb.index + verb[0].length).trim();
  return `${subjectOf(before)}${verb[1]} ${verb[1] === "threw" ? errorOf(after) : valueOf(after)}`.trim();
}

/**
 * What a verdict that names no call's outcome judges: of its sentences the last that introduces
 * something with ": " (not a closing rule such as "Each must call no runStep."), the words after
 * that first ": " (not the lead-in, "Run #, a new process, then ran runTask to the end"), up to
 * a "; " (the rule that follows: "; it must start from the state after step #").
 */
function judgement(plain: string): string {
  const sentences = plain.split(/(?<=[.!])\s+(?=[A-Z])/);
  const sentence = [...sentences].reverse().find((s) => s.includes(": ")) ?? sentences.at(-1) ?? "";
  const judged = sentence.includes(": ") ? sentence.slice(sentence.indexOf(": ") + 2) : sentence;
  return firstSentence(judged.split("; ")[0]!);
}

/** Who had the outcome, from the words before its verb: the last call named ("atomicCheckpoint"), with whose it was ("the reader's", "a writer's"), or a command run ("`session …`"); "" when none is named. */
function subjectOf(before: string): string {
  const command = /`([^`\s]+)[^`]*`\s*$/.exec(before);
  if (command) return `\`${command[1]} …\` `;
  // The last function called ("loadHistory(historyDir) for prompt A": loadHistory), else the last one named.
  const named = [...before.matchAll(/\b[a-z]+[A-Z]\w*(?=\()/g)];
  const call = named.at(-1) ?? [...before.matchAll(/\b[a-z]+[A-Z]\w*/g)].at(-1);
  if (!call) return "";
  const lead = before.slice(Math.max(0, call.index - 16), call.index);
  const whose = /the reader's\s*$/.test(lead) ? "the reader's " : /writer [A-Z]+'s\s*$/.test(lead) ? "a writer's " : "";
  return `${whose}${call[0]} `;
}

/** The error thrown, from the words after "threw": its name and code ("Error (EEXIST)"), a built-in error by its name, and another error with the plain words of its message. */
function errorOf(after: string): string {
  const error = /^(\w+)(?: \(([A-Z][A-Z0-9_]*)\))?(?::\s*(.*))?/.exec(after);
  if (!error) return firstSentence(plainWords(after));
  const [, name, code, message] = error;
  if (code) return `${name} (${code})`;
  if (BUILT_IN_ERRORS.has(name!) || !message) return name!;
  return `${name}: ${firstSentence(plainWords(message))}`;
}

/** The value returned or printed: a JSON object, array or string by its shape (its content is the data fast-check chose); a word or number with the plain words after it ("step #", "# states, and its element # is not ..."). */
function valueOf(after: string): string {
  const value = after.trim();
  if (/^\{\s*\}/.test(value)) return "{}";
  if (/^\[\s*\]/.test(value)) return "[]";
  if (value.startsWith("{")) return "{…}";
  if (value.startsWith("[")) return "[…]";
  if (value.startsWith('"')) return '"…"';
  return firstSentence(plainWords(value));
}

/** The first sentence of plain words (up to a full stop before a capital letter), at most 160 characters. */
function firstSentence(text: string): string {
  const end = /[.!](?=\s+[A-Z]|$)/.exec(text);
  const sentence = end ? text.slice(0, end.index) : text;
  return sentence.length > 160 ? `${sentence.slice(0, 159)}…` : sentence;
}
