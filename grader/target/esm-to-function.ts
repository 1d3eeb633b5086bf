// A target that uses top-level await cannot become a CommonJS bundle. Its ES module bundle is
// turned into the body of an async function instead: esbuild prints the imports of external
// modules (Node's built-ins, the lab module) as plain one-statement `import` lines, which become
// `require` calls, so the sandbox can still hand the target its own `fs` and the pristine lab.

/** The first line of a bundle that must run as the body of an async function. */
export const ASYNC_BODY_MARKER = "//# async-body";

/** The lines put before esbuild's own (the marker, then the helpers and the exports): its source map's lines start below them. */
export const ASYNC_BODY_HEAD_LINES = 2;

/** Rewrites an ES module bundle whose only imports are of external modules. */
export function esmBundleToAsyncBody(code: string): string {
  const exported: string[] = [];
  const body = code
    .replace(/^import\s+([\s\S]*?)\s+from\s+("[^"]+");/gm, (_all, clause: string, from: string) => importClause(clause.trim(), from))
    .replace(/^import\s+("[^"]+");/gm, (_all, from: string) => `require(${from});`)
    .replace(/^export\s*\{([\s\S]*?)\};/gm, (_all, names: string) => (exported.push(exportGetters(names)), ""));
  // The exports are live bindings defined before the first await, as an ES module's are: esbuild
  // prints them last, and a module's functions are called as soon as it is loaded (the calls are
  // synchronous), so a `function` declared anywhere in it is there for a call made while its top
  // level still awaits. (A `const` set after an await is not yet: see the README's known gaps.)
  // On the line before the body, as the helper is: the body's lines stay where its source map has them.
  return `${ASYNC_BODY_MARKER}\nconst __default = (m) => (m && m.__esModule ? m.default : m); ${exported.join(" ")}\n${body}`;
}

/** `a, b as c` as getters on module.exports: `a` and `c`, each reading its binding when read. */
function exportGetters(list: string): string {
  const pairs = bindings(list).map(({ name, alias }) => `${JSON.stringify(alias ?? name)}: { get: () => ${name}, enumerable: true }`);
  return `Object.defineProperties(module.exports, { ${pairs.join(", ")} });`;
}

function importClause(clause: string, from: string): string {
  const out: string[] = [];
  const namespace = clause.match(/\*\s+as\s+([\w$]+)/);
  const named = clause.match(/\{([\s\S]*)\}/);
  const fallback = clause.replace(/\{[\s\S]*\}/, "").replace(/\*\s+as\s+[\w$]+/, "").replace(/,/g, "").trim();
  if (fallback) out.push(`const ${fallback} = __default(require(${from}));`);
  if (namespace) out.push(`const ${namespace[1]} = require(${from});`);
  if (named) out.push(`const { ${renames(named[1]!)} } = require(${from});`);
  return out.join(" ");
}

/** `a, b as c` as destructuring (`a, b: c`) for imports. */
function renames(list: string): string {
  return bindings(list)
    .map(({ name, alias }) => (alias ? `${name}: ${alias}` : name))
    .join(", ");
}

/** The names of an import or export list, `a, b as c`: each binding and the name it goes by elsewhere. */
function bindings(list: string): { name: string; alias?: string }[] {
  return list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [name, alias] = s.split(/\s+as\s+/);
      return alias ? { name: name!, alias } : { name: name! };
    });
}
