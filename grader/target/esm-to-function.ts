// A target that uses top-level await cannot become a CommonJS bundle. Its ES module bundle is
// turned into the body of an async function instead: esbuild prints the imports of external
// modules (Node's built-ins, the lab module) as plain one-statement `import` lines, which become
// `require` calls, so the sandbox can still hand the target its own `fs` and the pristine lab.

/** The first line of a bundle that must run as the body of an async function. */
export const ASYNC_BODY_MARKER = "//# async-body";

/** Rewrites an ES module bundle whose only imports are of external modules. */
export function esmBundleToAsyncBody(code: string): string {
  const body = code
    .replace(/^import\s+([\s\S]*?)\s+from\s+("[^"]+");/gm, (_all, clause: string, from: string) => importClause(clause.trim(), from))
    .replace(/^import\s+("[^"]+");/gm, (_all, from: string) => `require(${from});`)
    .replace(/^export\s*\{([\s\S]*?)\};/gm, (_all, names: string) => `Object.assign(module.exports, { ${renames(names, "export")} });`);
  return `${ASYNC_BODY_MARKER}\nconst __default = (m) => (m && m.__esModule ? m.default : m);\n${body}`;
}

function importClause(clause: string, from: string): string {
  const out: string[] = [];
  const namespace = clause.match(/\*\s+as\s+([\w$]+)/);
  const named = clause.match(/\{([\s\S]*)\}/);
  const fallback = clause.replace(/\{[\s\S]*\}/, "").replace(/\*\s+as\s+[\w$]+/, "").replace(/,/g, "").trim();
  if (fallback) out.push(`const ${fallback} = __default(require(${from}));`);
  if (namespace) out.push(`const ${namespace[1]} = require(${from});`);
  if (named) out.push(`const { ${renames(named[1]!, "import")} } = require(${from});`);
  return out.join(" ");
}

/** `a, b as c` as destructuring (`a, b: c`) for imports, or as an object (`a, c: b`) for exports. */
function renames(list: string, kind: "import" | "export"): string {
  return list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [name, alias] = s.split(/\s+as\s+/);
      if (!alias) return name;
      return kind === "import" ? `${name}: ${alias}` : `${JSON.stringify(alias)}: ${name}`;
    })
    .join(", ");
}
