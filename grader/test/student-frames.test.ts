// An error of the student's code is told with the student's own lines (frames.ts), read through
// the bundle's source map: the same from the folder the bundle was built in and from a copy of it
// elsewhere, which is what a user of its own runs (target-user.ts's bundle copies).
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { dir } from "tmp-promise";
import { expect, test } from "vitest";
import { bundleTarget } from "../target/bundle.js";
import { StudentFrames } from "../sandbox/runtime/target/frames.js";

const SOURCE = `export function run(n: number) {\n  return helper(n);\n}\nfunction helper(n: number) {\n  throw new Error("nope " + n);\n}\n`;

test("an error names the student's own lines from the bundle where it was built and from a copy two folders deeper, and none from a bundle without its map", async () => {
  const scratch = await dir({ unsafeCleanup: true });
  try {
    const targetDir = path.join(scratch.path, "target");
    fs.mkdirSync(targetDir);
    fs.writeFileSync(path.join(targetDir, "t.ts"), SOURCE);
    const built = await bundleTarget({ targetDir, file: "t.ts", outFile: path.join(scratch.path, "t-1.cjs") });
    if (!built.ok) throw new Error(built.problem);
    const copy = path.join(scratch.path, "check-1", "bundles", "t-1.cjs");
    fs.mkdirSync(path.dirname(copy), { recursive: true });
    fs.copyFileSync(built.file, copy);
    const framesFrom = (file: string) => {
      const code = fs.readFileSync(file, "utf8");
      const { run } = createRequire(import.meta.url)(file) as { run(n: number): unknown };
      try {
        run(1);
      } catch (error) {
        return new StudentFrames(file, code, targetDir).of(error);
      }
      throw new Error("run did not throw");
    };
    expect(framesFrom(built.file)).toEqual(["helper (t.ts:5:9)", "run (t.ts:2:10)"]);
    expect(framesFrom(copy)).toEqual(["helper (t.ts:5:9)", "run (t.ts:2:10)"]);
    // Without its source map, no line is the student's to name.
    const bare = path.join(scratch.path, "bare", "t-1.cjs");
    fs.mkdirSync(path.dirname(bare));
    fs.writeFileSync(bare, fs.readFileSync(built.file, "utf8").replace(/\/\/# sourceMappingURL=.*\s*$/, ""));
    expect(framesFrom(bare)).toEqual([]);
  } finally {
    await scratch.cleanup();
  }
});
