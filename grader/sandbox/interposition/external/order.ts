// Which of a command line's programs made each change, so the changes and the syncs can be put
// in the order the programs ran (`sync a && mv a b && sync`: the fsync of a, the rename, then
// everything synced). A change goes to the program that names its path: a rename to the first
// that names its source, a new file or a link to the first that names it, a removal to the last;
// a change no program names goes to the first program that is not `sync`.
import path from "node:path";
import type { Change } from "./changes.js";
import type { ToRelative } from "./command-label.js";
import type { SimpleCommand } from "./command-line.js";
import { durabilityOf } from "./programs.js";
import type { Snapshot } from "./snapshot.js";

/** A change or a sync, with the index of the program (in the command line) that made it. */
export type ProgramAction = (Change | { kind: "sync"; paths: string[] | "all"; data: boolean }) & { by: number };

/** The actions of a command line: each change given to the program that made it, its syncs where they ran, in that order. */
export function orderActions(changes: Change[], commands: SimpleCommand[], options: { before: Snapshot; after: Snapshot; relative: ToRelative }): ProgramAction[] {
  const { before, after, relative } = options;
  const named = commands.map((c) => new Set(namedPaths(c, relative)));
  const changing = commands.map((c, i) => (c.program === "sync" ? -1 : i)).filter((i) => i >= 0);
  const first = changing[0] ?? 0;
  const names = (i: number, p: string) => [...named[i]!].some((n) => n === p || p.startsWith(n + "/") || n.startsWith(p + "/"));
  const firstNaming = (p: string) => changing.find((i) => names(i, p)) ?? first;
  const lastNaming = (p: string) => [...changing].reverse().find((i) => names(i, p)) ?? first;

  const actions: ProgramAction[] = [];
  for (const change of changes) {
    switch (change.kind) {
      case "rename":
        actions.push({ ...change, by: firstNaming(change.from) });
        break;
      case "remove":
        actions.push({ ...change, by: lastNaming(change.path) });
        break;
      case "write": {
        // A new file the line made under a name it then moved (`cat > t && mv t f`): written there, then renamed.
        const move = change.fresh ? movedInto(change.path, commands, { before, after, relative }) : undefined;
        if (move) actions.push({ ...change, path: move.from, by: firstNaming(move.from) }, { kind: "rename", from: move.from, to: change.path, by: move.by });
        else actions.push({ ...change, by: firstNaming(change.path) });
        break;
      }
      case "link":
        actions.push({ ...change, by: firstNaming(change.to) });
        break;
      case "symlink":
      case "mkdir":
        actions.push({ ...change, by: firstNaming(change.path) });
        break;
    }
  }
  // A path replaced later in the line that an earlier `rm` names was removed by that rm, first.
  for (const action of [...actions]) {
    const onto = action.kind === "rename" || action.kind === "link" ? action.to : action.kind === "write" && action.fresh ? action.path : undefined;
    if (onto === undefined || !before.has(onto)) continue;
    const rm = changing.find((i) => i < action.by && ["rm", "unlink"].includes(commands[i]!.program) && named[i]!.has(onto));
    if (rm !== undefined) actions.push({ kind: "remove", path: onto, by: rm });
  }
  commands.forEach((c, i) => {
    const durable = durabilityOf(c);
    if (durable) actions.push({ kind: "sync", paths: durable.paths === "all" ? "all" : durable.paths.flatMap((p) => relative(p) ?? []), data: durable.data, by: i });
  });
  // Stable: within one program, the changes keep the order that applies them one by one.
  return actions.map((s, i) => [s, i] as const).sort(([a, i], [b, j]) => a.by - b.by || rank(a) - rank(b) || i - j).map(([s]) => s);
}

/** The same actions with their programs' order forgotten: every change by the first program, the syncs before it (those that ran before any change) or after. */
export function unorderedActions(actions: ProgramAction[]): ProgramAction[] {
  const changes = actions.filter((s) => s.kind !== "sync");
  const firstChange = Math.min(...changes.map((s) => s.by));
  const syncs = actions.filter((s) => s.kind === "sync");
  return [...syncs.filter((s) => s.by < firstChange), ...changes.map((s) => ({ ...s, by: 0 })), ...syncs.filter((s) => s.by >= firstChange)];
}

/** Within one program: its syncs after its changes (dd fsyncs what it wrote). */
function rank(action: ProgramAction): number {
  return action.kind === "sync" ? 1 : 0;
}

/** The paths (relative) a program names: its arguments, `key=value` values (dd's of=) and redirections. */
function namedPaths(cmd: SimpleCommand, relative: ToRelative): string[] {
  return [...cmd.args.filter((a) => !a.startsWith("-")).map((a) => a.replace(/^[a-z]+=/, "")), ...cmd.outputs].flatMap((a) => relative(path.resolve(cmd.cwd, a)) ?? []);
}

/** The `mv` that moved a file into `dest` from a name that was there neither before nor after the line. */
function movedInto(dest: string, commands: SimpleCommand[], options: { before: Snapshot; after: Snapshot; relative: ToRelative }): { from: string; by: number } | undefined {
  for (const [by, cmd] of commands.entries()) {
    if (cmd.program !== "mv") continue;
    const operands = cmd.args.filter((a) => !a.startsWith("-")).map((a) => options.relative(path.resolve(cmd.cwd, a)));
    if (operands.length !== 2 || operands.includes(undefined)) continue;
    const [from, to] = operands as [string, string];
    const lands = to === dest || (options.after.get(to)?.kind === "dir" && `${to}/${path.posix.basename(from)}` === dest);
    if (lands && !options.before.has(from) && !options.after.has(from)) return { from, by };
  }
  return undefined;
}
