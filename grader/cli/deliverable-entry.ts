// Each deliverable's vitest entry, made from the manifest's id rather than kept as a file: it
// registers the checks grader/checks/<id>/index.ts defines (the one export whose id is <id>).
// compile-checks.ts compiles it; verdict-cache.ts reads which files it is compiled from.
import type { Plugin } from "esbuild";
import path from "node:path";
import { REPO_ROOT } from "../paths.js";

const NAMESPACE = "deliverable-entry";

/** What esbuild is given as the entry of deliverable `id`'s checks (the plugin below makes it). */
export function deliverableEntry(id: string): string {
  return `${NAMESPACE}:${id}`;
}

/** Whether an input esbuild reports is a made entry, not a file of the repository. */
export function isMadeEntry(input: string): boolean {
  return input.startsWith(`${NAMESPACE}:`);
}

/** The esbuild plugin that makes each deliverable's entry. */
export const deliverableEntries: Plugin = {
  name: NAMESPACE,
  setup(build) {
    build.onResolve({ filter: new RegExp(`^${NAMESPACE}:`) }, (args) => ({ path: args.path.slice(NAMESPACE.length + 1), namespace: NAMESPACE }));
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
      resolveDir: path.join(REPO_ROOT, "grader/checks"),
      loader: "ts",
      contents: entrySource(args.path),
    }));
  },
};

/** The entry's source: the id comes from the manifest, whose ids are checked against the code's. */
function entrySource(id: string): string {
  const quoted = JSON.stringify(id);
  return [
    `import { gradeDeliverable } from "../grading/harness.js";`,
    `import * as defined from ${JSON.stringify(`./${id}/index.js`)};`,
    `const definition = Object.values(defined).find((d) => d?.id === ${quoted});`,
    `if (!definition) throw new Error(${JSON.stringify(`grader/checks/${id}/index.ts exports no deliverable with the id ${id}`)});`,
    `gradeDeliverable(definition);`,
    ``,
  ].join("\n");
}
