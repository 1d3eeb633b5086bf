// What a command the target ran (a program, not its own code) did to the scenario folder, as file
// operations the crash engine can replay and cut like any recorded call. The folder is listed
// before and after the command, and between the programs of a shell line that ran with probes
// (external/probed-line.ts); each step from one listing to the next is told apart: git's in the
// order git works (external/git-ops.ts), any other program's by what each path holds before and
// after (external/changes.ts), given to the programs of the step in the order they ran
// (external/order.ts), with the system calls and the atomicity the real programs have
// (external/materialise.ts, external/programs.ts).
import fs from "node:fs";
import path from "node:path";
import type { FsOp } from "../../crash/model.js";
import { isGitCommand } from "../../crash/commands.js";
import { changesBetween } from "./external/changes.js";
import { relativeTo } from "./external/command-label.js";
import { simpleCommands, type Invocation, type SimpleCommand } from "../../crash/command-line.js";
import { gitOps } from "./external/git-ops.js";
import { materialise } from "./external/materialise.js";
import { inProgramOrder, orderActions, syncActions, unorderedActions, type ProgramAction } from "./external/order.js";
import type { ProbeFolder } from "./external/probe.js";
import type { Snapshot } from "./external/snapshot.js";

export { snapshot } from "./external/snapshot.js";

/** What the probes of a line saw (external/probed-line.ts): for probe k (at index k - 1), the first command after it, and the folder they listed. */
export interface Between {
  next: number[];
  probes: ProbeFolder;
}

/** Some of a line's programs (all of them when it was not read: null), the folder before and after them, and what a file held after them. */
interface Step {
  commands: SimpleCommand[] | null;
  before: Snapshot;
  after: Snapshot;
  read: (rel: string) => Buffer;
}

/**
 * The operations from `before` to `after` (both snapshots of `root`) made by the command whose
 * label is `api` ("exec:<command>"); `fd()` gives each open a descriptor id. `invocation` is how
 * the target ran it; without it the label is read as a shell line run in the work folder.
 * `between`: what the probes between its programs saw.
 */
export function externalOps(root: string, before: Snapshot, after: Snapshot, api: string, fd: () => number, invocation?: Invocation, between?: Between): FsOp[] {
  const command = api.replace(/^exec:/, "");
  const commands = simpleCommands(invocation ?? { script: command, cwd: `${root}/work` });
  return stepsOf(root, { before, after, commands }, between).flatMap((step) => stepOps(step, { root, api, fd, command }));
}

/** The line cut into steps at the probes that listed the folder (one that did not adds its programs to the next step). */
function stepsOf(root: string, line: { before: Snapshot; after: Snapshot; commands: SimpleCommand[] | null }, between?: Between): Step[] {
  const fromDisk = (rel: string) => fs.readFileSync(path.join(root, rel));
  const { commands } = line;
  if (!between || !commands) return [{ commands, before: line.before, after: line.after, read: fromDisk }];
  const steps: Step[] = [];
  let first = 0;
  let from = line.before;
  between.next.forEach((next, i) => {
    const listing = between.probes.listing(i + 1);
    if (!listing) return;
    steps.push({ commands: commands.slice(first, next), before: from, after: listing, read: (rel) => between.probes.content(listing, rel) });
    first = next;
    from = listing;
  });
  steps.push({ commands: commands.slice(first), before: from, after: line.after, read: fromDisk });
  return steps;
}

/** The operations of one step: git's model when it runs git, else the changes given to its programs. */
function stepOps(step: Step, options: { root: string; api: string; fd: () => number; command: string }): FsOp[] {
  const { root, api, fd, command } = options;
  const commands = step.commands ?? [];
  const git = step.commands ? commands.some((c) => c.program === "git") : isGitCommand(command);
  if (git) return gitStepOps(step, commands, options);
  const changes = changesBetween(step.before, step.after);
  const actions = orderActions(changes, commands, { before: step.before, after: step.after, relative: relativeTo(root) });
  const context = { root, before: step.before, commands, api, fd, read: step.read };
  // The order the programs ran in, else (a change given to the wrong program) the order that applies the changes one by one.
  const ops = materialise(inProgramOrder(actions), context) ?? materialise(unorderedActions(actions), context);
  if (!ops) throw new Error(`the effect of \`${command}\` could not be told as file operations`);
  return ops;
}

/**
 * A step that runs git: git's operations, with the syncs of its other programs (`git commit &&
 * sync`). Git's operations stand for all its commands of the step at once, so a sync that ran
 * before the last of them is put before them all: it then makes durable no more than it did.
 */
function gitStepOps(step: Step, commands: SimpleCommand[], options: { root: string; api: string; fd: () => number }): FsOp[] {
  const { api, fd } = options;
  const syncs = syncActions(commands, relativeTo(options.root));
  const lastGit = commands.map((c) => c.program).lastIndexOf("git");
  const synced = (actions: ProgramAction[], listing: Snapshot) => materialise(actions, { root: options.root, before: listing, commands, api, fd, read: step.read }) ?? [];
  return [
    ...synced(syncs.filter((s) => s.by < lastGit), step.before),
    ...gitOps(step.before, step.after, { api, fd, read: step.read }),
    ...synced(syncs.filter((s) => s.by > lastGit), step.after),
  ];
}
