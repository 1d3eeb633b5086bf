// The import graph of the repository's own code, read from the sources with the TypeScript
// compiler's pre-processor: every import (`import type` too), `export ... from`, `import()` and
// `require()` whose module is a file of the repository. Packages and Node's modules are left out.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

/** File (relative to the root, with "/") to the files it imports, in the order it names them. */
export type ImportGraph = Map<string, string[]>;

const SOURCE = /\.(ts|mts|cts|mjs|cjs|js)$/;

/** Every source file below `folders` (relative to `root`) and not below `skip`, sorted. */
export function sourceFiles(root: string, folders: readonly string[], skip: readonly string[] = []): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && !skip.includes(child)) walk(child);
      } else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(child);
    }
  };
  for (const folder of folders) walk(folder);
  return out.sort();
}

/**
 * The graph of `files` (relative to `root`): an import of a file of the repository outside them
 * is left out; one that names no file at all is an error.
 */
export function importGraph(root: string, files: readonly string[]): ImportGraph {
  const known = new Set(files);
  const aliases = pathAliases(root);
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const info = ts.preProcessFile(fs.readFileSync(path.join(root, file), "utf8"), true, true);
    const targets: string[] = [];
    for (const { fileName } of info.importedFiles) {
      const candidates = aliases.get(fileName) ?? (fileName.startsWith(".") ? candidatesFor(file, fileName) : []);
      const target = candidates.find((c) => known.has(c));
      if (target === undefined && candidates.length > 0 && !candidates.some((c) => fs.existsSync(path.join(root, c)))) {
        throw new Error(`${file} imports "${fileName}", which names no file`);
      }
      if (target !== undefined && !targets.includes(target)) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The files a relative module name may stand for ("./x.js" is "./x.ts" in the sources). */
function candidatesFor(from: string, name: string): string[] {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), name));
  const stem = base.replace(/\.(m|c)?js$/, "");
  return [base, `${stem}.ts`, `${stem}.mts`, `${stem}.cts`, `${base}.ts`, `${base}/index.ts`];
}

/** The module names tsconfig.json maps to files of the repository (`paths`: "@lab/task"). */
function pathAliases(root: string): Map<string, string[]> {
  const { config } = ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile);
  const options = config?.compilerOptions ?? {};
  const base = options.baseUrl ?? ".";
  const paths: Record<string, string[]> = options.paths ?? {};
  return new Map(Object.entries(paths).map(([name, targets]) => [name, targets.map((t) => path.posix.normalize(path.posix.join(base, t)))]));
}

/**
 * The import cycles of `graph`, each as a chain of files that starts and ends with the same file:
 * for every group of files that reach each other, the shortest cycle through each of its files,
 * each cycle once.
 */
export function importCycles(graph: ImportGraph): string[][] {
  const cycles = new Map<string, string[]>();
  for (const group of stronglyConnected(graph)) {
    const members = new Set(group);
    for (const start of group) {
      const cycle = shortestCycle(graph, start, members);
      if (!cycle) continue;
      const ring = cycle.slice(0, -1);
      const first = ring.indexOf([...ring].sort()[0]!);
      const canonical = [...ring.slice(first), ...ring.slice(0, first)];
      cycles.set(canonical.join(" "), [...canonical, canonical[0]!]);
    }
  }
  return [...cycles.values()].sort((a, b) => a.length - b.length || a.join().localeCompare(b.join()));
}

/** Groups of files in which each reaches every other (Tarjan), the lone files with no self-import left out. */
function stronglyConnected(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) groups.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return groups;
}

/** The shortest chain from `start` back to itself within `members`. */
function shortestCycle(graph: ImportGraph, start: string, members: ReadonlySet<string>): string[] | undefined {
  return chainsFrom(graph, start, (file) => file === start, (file) => members.has(file))[0];
}

/**
 * The files `start` reaches that `isEnd` picks, each once, with the shortest chain of imports to
 * it (breadth first), going on only through files that are not ends and that `through` lets pass.
 */
export function chainsFrom(graph: ImportGraph, start: string, isEnd: (file: string) => boolean, through: (file: string) => boolean = () => true): string[][] {
  const parent = new Map<string, string>();
  const ended = new Set<string>();
  const chains: string[][] = [];
  let frontier = [start];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const file of frontier) {
      for (const target of graph.get(file) ?? []) {
        if (isEnd(target)) {
          if (ended.has(target)) continue;
          ended.add(target);
          const chain = [file, target];
          for (let up = file; up !== start; up = parent.get(up)!) chain.unshift(parent.get(up)!);
          chains.push(chain);
        } else if (through(target) && target !== start && !parent.has(target)) {
          parent.set(target, file);
          next.push(target);
        }
      }
    }
    frontier = next;
  }
  return chains;
}
