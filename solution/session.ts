// Phase 3 reference: one session = one process = one call to runTask with a step budget.
import { labTask } from "@lab/task";
import { runTask } from "./runner";

export function main(argv: string[]): void {
  const checkpoint = option(argv, "--checkpoint");
  const maxSteps = option(argv, "--max-steps");
  if (!checkpoint) throw new Error("usage: session --checkpoint <file> [--max-steps <n>]");
  const result = runTask({ task: labTask(), checkpointPath: checkpoint, maxSteps: maxSteps === undefined ? undefined : Number(maxSteps) });
  console.log(JSON.stringify({ status: result.status, nextStep: result.nextStep }));
}

/** The value after `name` on the command line (`--name value` or `--name=value`). */
function option(argv: string[], name: string): string | undefined {
  const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i === -1) return undefined;
  return argv[i]!.includes("=") ? argv[i]!.slice(name.length + 1) : argv[i + 1];
}

main(process.argv.slice(2));
