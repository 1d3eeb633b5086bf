// Which of the programs of one step of a command line made each change, so the changes and the
// syncs can be put in the order the programs ran (`sync a && mv a b && sync`: the fsync of a, the
// rename, then everything synced). The programs a probe separates (probed-line.ts) are told apart
// by what it listed; within a step (a pipeline, a line that was not read or ran without probes,
// a program and the syncs after it) a change goes to the program that names its path: a rename
// to the first that names both its source and its destination, else its source; a new file or a
// link to the first that names it; a removal to the last; a change no program names to the first
// program that is not `sync`; and never a change to a program before the one of an earlier change
// to the same path (the listings give their order).
import path from "node:path";
import type { Change } from "./changes.js";
import type { ToRelative } from "./command-label.js";
import type { SimpleCommand } from "../../../crash/command-line.js";
import { durabilityOf } from "./programs.js";
import type { Snapshot } from "./snapshot.js";

/** A change or a sync, with the index of the program (in the command line) that made it. */
export type ProgramAction = (Change | { kind: "sync"; paths: string[] | "all"; data: boolean }) & { by: number };

/**
 * The actions of a command line: each change given to the program that made it, in the order that
 * applies the changes one by one, then its syncs (inProgramOrder puts them where they ran).
 */
export function orderActions(changes: Change[], commands: SimpleCommand[], options: { before: Snapshot; after: Snapshot; relative: ToRelative }): ProgramAction[] {
  const { relative } = options;
  const who = programsNaming(commands, relative);
  const actions: ProgramAction[] = changes.flatMap((change) => attributed(change, who, commands, options));
  removedByRm(actions, who, commands, new Set(options.before.keys()));
  keepOrderOnEachPath(actions);
  return [...actions, ...syncActions(commands, relative)];
}

/** What the programs of a line make durable (`sync`, `dd conv=fsync`), each by its program. */
export function syncActions(commands: SimpleCommand[], relative: ToRelative): ProgramAction[] {
  return commands.flatMap((c, i) => {
    const durable = durabilityOf(c);
    return durable ? [{ kind: "sync" as const, paths: durable.paths === "all" ? ("all" as const) : durable.paths.flatMap((p) => relative(p) ?? []), data: durable.data, by: i }] : [];
  });
}

/** The actions in the order their programs ran; within one program, in the order that applies them one by one. */
export function inProgramOrder(actions: ProgramAction[]): ProgramAction[] {
  return actions.map((s, i) => [s, i] as const).sort(([a, i], [b, j]) => a.by - b.by || rank(a) - rank(b) || i - j).map(([s]) => s);
}

/** The same actions with their programs' order forgotten: every change by the first program, the syncs before it (those that ran before any change) or after. */
export function unorderedActions(actions: ProgramAction[]): ProgramAction[] {
  const changes = actions.filter((s) => s.kind !== "sync");
  const firstChange = Math.min(...changes.map((s) => s.by));
  const syncs = actions.filter((s) => s.kind === "sync");
  return [...syncs.filter((s) => s.by < firstChange), ...changes.map((s) => ({ ...s, by: 0 })), ...syncs.filter((s) => s.by >= firstChange)];
}

/** Which programs of a line name which paths. */
interface Naming {
  named: Set<string>[];
  /** The programs that may change the folder (not `sync`), by index. */
  changing: number[];
  first: (p: string) => number;
  /** The last program that names `p`, not after `limit`. */
  last: (p: string, limit?: number) => number;
  /** The first program that names both paths (`mv a d/` for a → d/a), else the first that names `from`. */
  both: (from: string, to: string) => number;
}

function programsNaming(commands: SimpleCommand[], relative: ToRelative): Naming {
  const named = commands.map((c) => new Set(namedPaths(c, relative)));
  const changing = commands.map((c, i) => (c.program === "sync" ? -1 : i)).filter((i) => i >= 0);
  const fallback = changing[0] ?? 0;
  const names = (i: number, p: string) => [...named[i]!].some((n) => n === p || p.startsWith(n + "/") || n.startsWith(p + "/"));
  const first = (p: string) => changing.find((i) => names(i, p)) ?? fallback;
  return {
    named,
    changing,
    first,
    last: (p, limit = Infinity) => [...changing].reverse().find((i) => i <= limit && names(i, p)) ?? Math.min(first(p), limit),
    both: (from, to) => changing.find((i) => names(i, from) && names(i, to)) ?? first(from),
  };
}

/** One change as the actions of the programs that made it (a removal's program is chosen once all are known). */
function attributed(change: Change, who: Naming, commands: SimpleCommand[], options: { before: Snapshot; after: Snapshot; relative: ToRelative }): ProgramAction[] {
  switch (change.kind) {
    case "rename":
      return [{ ...change, by: who.both(change.from, change.to) }];
    case "remove":
      return [{ ...change, by: who.last(change.path) }];
    case "write": {
      // A new file the line made under a name it then moved (`cat > t && mv t f`): written there, then renamed.
      const move = change.fresh ? movedInto(change.path, commands, options) : undefined;
      if (!move) return [{ ...change, by: who.first(change.path) }];
      return [{ ...change, path: move.from, by: who.first(move.from) }, { kind: "rename", from: move.from, to: change.path, by: move.by }];
    }
    case "link":
      return [{ ...change, by: who.first(change.to) }];
    case "symlink":
    case "mkdir":
      return [{ ...change, by: who.first(change.path) }];
  }
}

/**
 * A path that something replaces (a rename or a link onto it, a new file written there) while it is
 * still there, and that an earlier `rm` names, was removed by that rm, first (`rm -f f && mv t f`).
 * `present`: the paths there before the actions, kept up to date as they apply.
 */
function removedByRm(actions: ProgramAction[], who: Naming, commands: SimpleCommand[], present: Set<string>): void {
  for (const action of [...actions]) {
    const onto = action.kind === "rename" || action.kind === "link" ? action.to : action.kind === "write" && action.fresh ? action.path : undefined;
    const rm = who.changing.find((i) => i < action.by && ["rm", "unlink"].includes(commands[i]!.program) && onto !== undefined && who.named[i]!.has(onto));
    if (onto !== undefined && rm !== undefined && present.has(onto)) {
      actions.splice(actions.indexOf(action), 0, { kind: "remove", path: onto, by: rm });
      present.delete(onto);
    }
    applyTo(present, action);
  }
}

/** Which paths are there after `action`. */
function applyTo(present: Set<string>, action: ProgramAction): void {
  const under = (p: string) => [...present].filter((q) => q === p || q.startsWith(p + "/"));
  if (action.kind === "rename") for (const q of under(action.from)) present.delete(q), present.add(action.to + q.slice(action.from.length));
  else if (action.kind === "remove") present.delete(action.path);
  else if (action.kind !== "sync") present.add(action.kind === "link" ? action.to : action.path);
}

/**
 * Two changes to one path (or to a folder and what is in it) happened in the order the listings
 * give them (`touch a ; mv b a ; cat b > a`: the rename, then the write): the later one is given to
 * the same program as the earlier one or to a later program, never to an earlier one.
 */
function keepOrderOnEachPath(actions: ProgramAction[]): void {
  const related = (p: string, q: string) => p === q || p.startsWith(q + "/") || q.startsWith(p + "/");
  actions.forEach((action, i) => {
    for (const earlier of actions.slice(0, i)) {
      if (pathsOf(earlier).some((p) => pathsOf(action).some((q) => related(p, q)))) action.by = Math.max(action.by, earlier.by);
    }
  });
}

/** The paths an action reads or changes. */
function pathsOf(action: ProgramAction): string[] {
  switch (action.kind) {
    case "rename":
    case "link":
      return [action.from, action.to];
    case "write":
      return [action.path, action.from];
    case "symlink":
    case "mkdir":
    case "remove":
      return [action.path];
    case "sync":
      return [];
  }
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
