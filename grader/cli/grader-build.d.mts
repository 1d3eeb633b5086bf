import type { BuildOptions } from "esbuild";

/** esbuild options shared by every build of the grader's own code. */
export declare const GRADER_BUILD: BuildOptions;
