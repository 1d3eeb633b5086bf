// How the grader's own TypeScript is compiled for a grade (the command line in launch.mjs, each
// deliverable's checks in compile-checks.ts): one plain ES module per entry for Node 20, with the
// packages left for Node to load from node_modules.

/** esbuild options shared by every build of the grader's own code. */
export const GRADER_BUILD = { bundle: true, platform: "node", format: "esm", target: "node20", packages: "external", logLevel: "error" };
