// GitHub Actions expressions (`${{ ... }}`), evaluated as GitHub does for what the workflows use:
// literals, context paths (`inputs.x`, `needs.plan.outputs.matrix`, `matrix['shard']`), `!`, `&&`,
// `||`, `==`, `!=`, `<`, `<=`, `>`, `>=` with GitHub's loose comparison (strings compared ignoring
// case, other mixed types as numbers), parentheses, the status functions and fromJSON/toJSON. Any
// other function, syntax, or an unknown context is refused with an error, never guessed at.

/** A value an expression yields. */
export type Value = null | boolean | number | string | Value[] | { [key: string]: Value };

/** What an expression can read: the contexts by name, and the job's state for the status functions. */
export interface ExpressionScope {
  contexts: Record<string, Value>;
  /** Contexts of which only the fields given are known here (github, runner): another field is refused, not read as null. */
  partial?: string[];
  /** For success() and failure(): a step's job has failed so far, or a job's needs did not all succeed. */
  failed: boolean;
}

type Node =
  | { kind: "literal"; value: Value }
  | { kind: "path"; root: string; keys: (string | Node)[] }
  | { kind: "call"; name: string; args: Node[] }
  | { kind: "not"; operand: Node }
  | { kind: "binary"; op: string; left: Node; right: Node };

const STATUS = ["always", "success", "failure", "cancelled"];
const TOKEN = /\s*(?:(\d+(?:\.\d+)?)|('(?:[^']|'')*')|(&&|\|\||==|!=|<=|>=|[<>!().,[\]])|([A-Za-z_][\w-]*))/y;

/** Evaluates one expression (the text inside `${{ }}`). */
export function evaluate(expression: string, scope: ExpressionScope): Value {
  return run(parse(expression), scope, expression);
}

/** Evaluates an `if:` condition, with or without `${{ }}`; one without a status function holds only while success() does, as on GitHub. */
export function condition(text: string | boolean | undefined, scope: ExpressionScope): boolean {
  if (typeof text === "boolean") return text;
  const bare = (text ?? "success()").trim().replace(/^\$\{\{\s*([\s\S]*?)\s*\}\}$/, "$1");
  const tree = parse(bare);
  return truthy(run(tree, scope, bare)) && (usesStatus(tree) || !scope.failed);
}

/** A string with every `${{ }}` replaced by its value as text; a string that is one expression alone keeps the value's own type (as `strategy.matrix` needs). */
export function interpolate(text: string, scope: ExpressionScope): Value {
  const whole = /^\$\{\{\s*([\s\S]*?)\s*\}\}$/.exec(text);
  if (whole && !whole[1]!.includes("}}")) return evaluate(whole[1]!, scope);
  return text.replace(/\$\{\{\s*([\s\S]*?)\s*\}\}/g, (_, expression: string) => asText(evaluate(expression, scope), expression));
}

/** A value as GitHub writes it into a string: null is empty; an object or array is refused (GitHub writes "Object" or "Array"). */
export function asText(value: Value, expression: string): string {
  if (value === null) return "";
  if (typeof value === "object") throw new Error(`\${{ ${expression} }} is an object or array, which GitHub would not write out as its contents: use toJSON`);
  return String(value);
}

function parse(expression: string): Node {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < expression.length && expression.slice(TOKEN.lastIndex).trim() !== "") {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(expression);
    if (!match) throw new Error(`\${{ ${expression} }}: cannot read it from ${JSON.stringify(expression.slice(at))}`);
    tokens.push(match[0].trim());
  }
  let i = 0;
  const peek = () => tokens[i];
  const take = (want?: string) => {
    const t = tokens[i++];
    if (t === undefined || (want !== undefined && t !== want)) throw new Error(`\${{ ${expression} }}: expected ${want ?? "more"}, got ${t ?? "the end"}`);
    return t;
  };
  const binary = (ops: string[], next: () => Node) => () => {
    let left = next();
    while (ops.includes(peek() ?? "")) left = { kind: "binary", op: take(), left, right: next() } as Node;
    return left;
  };
  const primary = (): Node => {
    const t = take();
    if (t === "(") {
      const inner = or();
      take(")");
      return inner;
    }
    if (t === "!") return { kind: "not", operand: primary() };
    if (/^\d/.test(t)) return { kind: "literal", value: Number(t) };
    if (t.startsWith("'")) return { kind: "literal", value: t.slice(1, -1).replace(/''/g, "'") };
    if (t === "true" || t === "false") return { kind: "literal", value: t === "true" };
    if (t === "null") return { kind: "literal", value: null };
    if (!/^[A-Za-z_]/.test(t)) throw new Error(`\${{ ${expression} }}: unexpected ${t}`);
    if (peek() === "(") {
      take("(");
      const args: Node[] = [];
      while (peek() !== ")") args.push(or()), peek() === "," && take(",");
      take(")");
      return { kind: "call", name: t, args };
    }
    const keys: (string | Node)[] = [];
    while (peek() === "." || peek() === "[") {
      if (take() === ".") keys.push(take());
      else keys.push(or()), take("]");
    }
    return { kind: "path", root: t, keys };
  };
  const or: () => Node = binary(["||"], binary(["&&"], binary(["==", "!="], binary(["<", "<=", ">", ">="], primary))));
  const tree = or();
  if (i < tokens.length) throw new Error(`\${{ ${expression} }}: unexpected ${tokens[i]}`);
  return tree;
}

function run(node: Node, scope: ExpressionScope, expression: string): Value {
  const again = (n: Node) => run(n, scope, expression);
  switch (node.kind) {
    case "literal": return node.value;
    case "not": return !truthy(again(node.operand));
    case "binary": {
      const left = again(node.left);
      if (node.op === "&&") return truthy(left) ? again(node.right) : left;
      if (node.op === "||") return truthy(left) ? left : again(node.right);
      return compare(node.op, left, again(node.right));
    }
    case "call": {
      const args = node.args.map(again);
      if (node.name === "always") return true;
      if (node.name === "success") return !scope.failed;
      if (node.name === "failure") return scope.failed;
      if (node.name === "cancelled") return false;
      if (node.name === "fromJSON") return JSON.parse(String(args[0])) as Value;
      if (node.name === "toJSON") return JSON.stringify(args[0], null, 2);
      throw new Error(`\${{ ${expression} }}: ${node.name}() is not a function this runner evaluates`);
    }
    case "path": {
      if (!Object.hasOwn(scope.contexts, node.root)) throw new Error(`\${{ ${expression} }}: the context ${node.root} is not one this runner has`);
      let value: Value = scope.contexts[node.root]!;
      const walked = [node.root];
      for (const key of node.keys) {
        const name = typeof key === "string" ? key : String(again(key));
        const known: boolean = value !== null && typeof value === "object" && !Array.isArray(value) && Object.hasOwn(value, name);
        if (!known && scope.partial?.includes(node.root)) throw new Error(`\${{ ${expression} }}: ${[...walked, name].join(".")} is not known to this runner`);
        walked.push(name);
        value = known ? (value as Record<string, Value>)[name]! : Array.isArray(value) && /^\d+$/.test(name) ? (value[Number(name)] ?? null) : null;
      }
      return value;
    }
  }
}

/** GitHub's comparison: strings ignoring case, values of other or mixed types as numbers (objects only to themselves). */
function compare(op: string, left: Value, right: Value): boolean {
  const bothStrings = typeof left === "string" && typeof right === "string";
  const objects = (typeof left === "object" && left !== null) || (typeof right === "object" && right !== null);
  const [a, b] = bothStrings ? [left.toLowerCase(), right.toLowerCase()] : objects ? [left, right] : [toNumber(left), toNumber(right)];
  if (objects) {
    if (op === "==") return a === b;
    if (op === "!=") return a !== b;
    return false;
  }
  switch (op) {
    case "==": return a === b;
    case "!=": return a !== b;
    case "<": return a! < b!;
    case "<=": return a! <= b!;
    case ">": return a! > b!;
    default: return a! >= b!;
  }
}

function toNumber(value: Value): number {
  if (value === null) return 0;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return value;
  if (typeof value === "string") return value.trim() === "" ? 0 : Number(value);
  return NaN;
}

function truthy(value: Value): boolean {
  return !(value === false || value === null || value === "" || value === 0 || (typeof value === "number" && Number.isNaN(value)));
}

function usesStatus(node: Node): boolean {
  if (node.kind === "call") return STATUS.includes(node.name) || node.args.some(usesStatus);
  if (node.kind === "not") return usesStatus(node.operand);
  if (node.kind === "binary") return usesStatus(node.left) || usesStatus(node.right);
  return false;
}
