// The student's own stack frames of an error thrown by their code: the bundle's frames mapped back
// through its source map, keeping only lines of files in the target folder ("checkpoint.ts:12:7").
import { SourceMap } from "node:module";
import path from "node:path";

const MAX_FRAMES = 3;
const FRAME = /^\s*at (?:(.*?) \()?(.*):(\d+):(\d+)\)?$/;

/** "write-file-atomic" or "@scope/name" for a source path inside node_modules; undefined outside. */
function packageName(source: string): string | undefined {
  const parts = source.split(/[\\/]/);
  const at = parts.lastIndexOf("node_modules");
  if (at < 0 || at + 1 >= parts.length) return undefined;
  const first = parts[at + 1]!;
  return first.startsWith("@") && at + 2 < parts.length ? `${first}/${parts[at + 2]}` : first;
}

/** Maps frames of one bundle file to the target's sources. */
export class StudentFrames {
  private map: SourceMap | null | undefined;
  private packages: boolean | undefined;

  constructor(
    private readonly bundleFile: string,
    private readonly code: string,
    private readonly targetDir: string,
  ) {}

  /** Up to three frames, innermost first, such as "loadCheckpoint (checkpoint.ts:12:7)"; [] when none is the student's. */
  of(error: unknown): string[] {
    const stack = error instanceof Error && typeof error.stack === "string" ? error.stack : "";
    const out: string[] = [];
    for (const line of stack.split("\n").slice(1)) {
      const m = FRAME.exec(line);
      if (!m || m[2] !== this.bundleFile) continue;
      const frame = this.locate(m[1], Number(m[3]), Number(m[4]));
      // Endless recursion repeats one frame: show it once.
      if (frame && frame !== out.at(-1)) out.push(frame);
      if (out.length === MAX_FRAMES) break;
    }
    return out;
  }

  /**
   * The package (in node_modules) whose code made the call being made now, or undefined when the
   * target's own code made it; `here` is an error made at the call. Asked only of a bundle that
   * holds a package's code at all (`bundlesPackages`).
   */
  packageOf(here: Error): string | undefined {
    for (const line of (here.stack ?? "").split("\n").slice(1)) {
      const m = FRAME.exec(line);
      if (!m || m[2] !== this.bundleFile) continue;
      const entry = this.sourceMap()?.findEntry(Number(m[3]) - 1, Number(m[4]) - 1) as { originalSource?: string } | undefined;
      if (!entry?.originalSource) continue;
      // The innermost frame of the bundle made the call: a package's, or the target's own.
      return packageName(entry.originalSource);
    }
    return undefined;
  }

  /**
   * The recorder's `callerOf` for this bundle: the package making the call that starts now, or
   * undefined for a bundle with no package's code (no stack is then captured at any call).
   */
  callerHook(): (() => string | undefined) | undefined {
    return this.bundlesPackages ? () => this.packageOf(new Error()) : undefined;
  }

  /** Whether the bundle holds code from node_modules (a package the target imports); worked out once, as every scenario asks. */
  get bundlesPackages(): boolean {
    if (this.packages === undefined) {
      const sources = (this.sourceMap()?.payload as { sources?: string[] } | undefined)?.sources ?? [];
      this.packages = sources.some((s) => packageName(s) !== undefined);
    }
    return this.packages;
  }

  private locate(fn: string | undefined, line: number, column: number): string | null {
    const entry = this.sourceMap()?.findEntry(line - 1, column - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number } | undefined;
    if (!entry?.originalSource) return null;
    // Sources are relative to the folder the bundle was built in (its sourceRoot), not to where this copy of it lies.
    const root = (this.sourceMap()?.payload as { sourceRoot?: string } | undefined)?.sourceRoot || path.dirname(this.bundleFile);
    const source = path.resolve(root, entry.originalSource.replace(/^file:\/\//, ""));
    const rel = path.relative(this.targetDir, source);
    if (rel.startsWith("..") || path.isAbsolute(rel) || rel.split(path.sep).includes("node_modules")) return null;
    const where = `${rel}:${entry.originalLine! + 1}:${entry.originalColumn! + 1}`;
    const name = fn?.replace(/^(Object|Module)\./, "");
    return name && !/^(new )?<anonymous>$/.test(name) ? `${name} (${where})` : where;
  }

  private sourceMap(): SourceMap | null {
    if (this.map !== undefined) return this.map;
    const m = /\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)\s*$/.exec(this.code);
    try {
      this.map = m ? new SourceMap(JSON.parse(Buffer.from(m[1]!, "base64").toString("utf8"))) : null;
    } catch {
      this.map = null;
    }
    return this.map;
  }
}
