// What a command the target ran (a program, not its own code) did to the scenario folder, as file
// operations the crash engine can replay and cut like any recorded call. The folder is listed
// before and after the command; git's effect is told in the order git works (external/git-ops.ts),
// any other program's by what each path holds before and after (external/changes.ts), in the
// order its programs ran (external/order.ts), with the system calls and the atomicity the real
// programs have (external/materialise.ts, external/programs.ts).
import type { FsOp } from "../../crash/trace.js";
import { isGitCommand } from "../../crash/commands.js";
import { changesBetween } from "./external/changes.js";
import { relativeTo } from "./external/command-label.js";
import { simpleCommands, type Invocation } from "./external/command-line.js";
import { gitOps } from "./external/git-ops.js";
import { materialise } from "./external/materialise.js";
import { orderActions, unorderedActions } from "./external/order.js";
import type { Snapshot } from "./external/snapshot.js";

export { snapshot } from "./external/snapshot.js";

/**
 * The operations from `before` to `after` (both snapshots of `root`) made by the command whose
 * label is `api` ("exec:<command>"); `fd()` gives each open a descriptor id. `invocation` is how
 * the target ran it; without it the label is read as a shell line run in the work folder.
 */
export function externalOps(root: string, before: Snapshot, after: Snapshot, api: string, fd: () => number, invocation?: Invocation): FsOp[] {
  const command = api.replace(/^exec:/, "");
  if (isGitCommand(command)) return gitOps(root, before, after, api, fd);
  const commands = simpleCommands(invocation ?? { script: command, cwd: `${root}/work` });
  const changes = changesBetween(before, after);
  const actions = orderActions(changes, commands ?? [], { before, after, relative: relativeTo(root) });
  const options = { root, before, commands: commands ?? [], api, fd };
  const ops = materialise(actions, options) ?? materialise(unorderedActions(actions), options);
  if (!ops) throw new Error(`the effect of \`${command}\` could not be told as file operations`);
  return ops;
}
