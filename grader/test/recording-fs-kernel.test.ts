// The recording fs against the kernel: each call it rebuilds from primitives, with arguments drawn
// from a fixed seed, made once by Node's own fs under strace and once through the recording fs, on
// every Node the project supports. The crash and power-loss models are built from the record, so
// a record that does more (an fsync Node never made) or less than Node grades a world that is not
// the real one. What counts as the same is meaning.ts's rules.
import { execaSync } from "execa";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { dir as tempDir, type DirectoryResult } from "tmp-promise";
import { flushIgnored } from "../sandbox/interposition/node-quirks.js";
import { conformanceCases, type NamedCase } from "./support/kernel/cases.js";
import { bundleDriver, runConformance, type CaseVerdict } from "./support/kernel/conformance.js";
import { dataOf } from "./support/kernel/run-case.js";
import { INSTALL_COMMAND, nodesToCheck } from "./support/kernel/nodes.js";

const cases = conformanceCases({ perCall: 40 });
const byId = new Map(cases.map((c) => [c.id, c]));
let scratch: DirectoryResult;
let driver: string;

beforeAll(async () => {
  scratch = await tempDir({ unsafeCleanup: true });
  driver = await bundleDriver(scratch.path);
});
afterAll(() => scratch?.cleanup());

/** Each case's two sides, by Node version, run once for all the tests of that version. */
const runs = new Map<string, Promise<CaseVerdict[]>>();
function verdictsOn(version: string, file: string): Promise<CaseVerdict[]> {
  if (!runs.has(version)) runs.set(version, runConformance(file, driver, cases, `${scratch.path}/${version}`).then((r) => (expect(r.version).toBe(version), r.verdicts)));
  return runs.get(version)!;
}

const differs = (v: CaseVerdict) => JSON.stringify(v.kernel) !== JSON.stringify(v.recorded) || v.kernelError !== v.recordedError;

describe("the recording fs records the system calls Node makes", () => {
  test("strace is installed", () => {
    const found = execaSync("strace", ["-V"], { reject: false });
    expect(found.exitCode, "strace is missing: install it (apt-get install strace; .ci/run does)").toBe(0);
  });

  test.each(nodesToCheck())("on Node $version, every case records what the kernel saw", async ({ version, file }) => {
    expect(file, `Node ${version} is not installed: run ${INSTALL_COMMAND}`).not.toBeNull();
    const verdicts = await verdictsOn(version, file!);
    expect(verdicts).toHaveLength(cases.length);
    const differing = verdicts.filter(differs).map((v) => ({ call: byId.get(v.id), kernel: [v.kernelError ?? "", ...v.kernel], recorded: [v.recordedError ?? "", ...v.recorded] }));
    expect(differing).toEqual([]);
  });

  test.each(nodesToCheck())("on Node $version, writeFileSync and appendFileSync fsync for `flush` exactly where node-quirks.ts says", async ({ version, file }) => {
    expect(file, `Node ${version} is not installed: run ${INSTALL_COMMAND}`).not.toBeNull();
    const verdicts = await verdictsOn(version, file!);
    const flushed = cases.filter(isSyncFlush);
    expect(flushed.length).toBeGreaterThan(10);
    // Both ways seen, so the rule is measured and not assumed.
    const ignoredSomewhere = flushed.some((c) => ruleSays(c, version));
    expect(ignoredSomewhere).toBe(true);
    for (const c of flushed) {
      const kernel = verdicts.find((v) => v.id === c.id)!;
      if (kernel.kernelError) continue;
      expect({ call: c, fsynced: kernel.kernel.some((l) => l.startsWith("fsync ")) }).toEqual({ call: c, fsynced: !ruleSays(c, version) });
    }
  });
});

type WriteCase = Extract<NamedCase, { to: unknown }>;

function isSyncFlush(c: NamedCase): c is WriteCase {
  return (c.call === "writeFileSync" || c.call === "appendFileSync") && c.options.form === "object" && c.options.flush === true;
}

/** What node-quirks.ts says of the case on `version`: the fsync is skipped. */
function ruleSays(c: WriteCase, version: string): boolean {
  return flushIgnored(dataOf(c.data, c.options.encoding), c.options.encoding, version);
}
