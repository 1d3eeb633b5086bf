// Phase 3: one session of a task that spans several processes.
//
//   session --checkpoint <file> [--max-steps <n>]
//
// Each run is a separate process: it picks up the task from the checkpoint, runs at most n steps
// through runTask, prints one line of JSON as its last line of output, and exits with code 0:
//
//   {"status":"paused","nextStep":5}
//
// Run it yourself: npx tsx starter/session.ts --checkpoint /tmp/demo.json --max-steps 4
import { labTask } from "@lab/task";
import { runTask } from "./runner";

/**
 * Reads the command line (process.argv), runs the lab task, and prints the status line.
 *
 * Everything a later session needs must be on disk when this process exits: nothing in memory
 * survives. What should a session print when the checkpoint says the task is already done?
 */
export function main(argv: string[]): void {
  // TODO: parse --checkpoint and --max-steps from argv, call runTask with labTask(), and print
  // {"status": ..., "nextStep": ...} as the last line of standard output.
  throw new Error("not implemented yet: session (starter/session.ts)");
}

main(process.argv.slice(2));
