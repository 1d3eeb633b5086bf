// The modules through which a target could reach Node's own `fs` behind the recording one: a
// worker thread (its `fs` is a fresh, unrecorded instance), a process of the cluster, a `require`
// made with `module.createRequire`, the `Module` class; and `process.binding`, Node's own file
// calls below `fs` (closeProcessBindings). Each is given with that door closed: the
// call throws an error that names it, as a call the recording fs cannot record does, instead of
// changing the disk unseen (and leaving every story of the crash that follows untrue).
import { isBuiltin } from "node:module";

/** The error of a door the grader keeps closed: what was called and why it is refused. */
export function closedDoor(name: string, instead: string): Error {
  const error = new Error(
    `${name} is not supported by the lab's grader: the file-system calls made there would change the disk unseen, so it could not crash them. ${instead}`,
  );
  return Object.assign(error, { code: "ERR_LAB_UNSUPPORTED" });
}

const IMPORT_INSTEAD = "Import what you need (import fs from \"node:fs\"): the grader gives your code its recording fs.";

/**
 * The module the target gets for `name` when it is one with a door to Node's own `fs`, given
 * `requireMapped` (the target's own `require`, which maps fs, child_process and the lab's
 * modules); undefined for every other module.
 */
export function guardedModule(name: string, real: (name: string) => unknown, requireMapped: (name: string) => unknown): unknown {
  const bare = name.startsWith("node:") ? name.slice("node:".length) : name;
  if (bare === "worker_threads") {
    return overriding(real(name), {
      Worker: function Worker() {
        throw closedDoor("new Worker (worker_threads)", "Make the file-system calls in your own thread, with fs's synchronous calls.");
      },
    });
  }
  if (bare === "cluster") {
    return overriding(real(name), {
      fork: () => {
        throw closedDoor("cluster.fork", "Run a program through child_process instead: what it changes is recorded.");
      },
    });
  }
  if (bare === "module") {
    // A function, not an arrow: `new Module()` must throw this error too, not "not a constructor".
    const refuse = (what: string) =>
      function refused(): never {
        throw closedDoor(what, IMPORT_INSTEAD);
      };
    // A require made here maps the same modules as the target's own; it loads no file or package
    // (those would run with Node's fs): everything the code needs is compiled into its bundle.
    const createRequire = () =>
      Object.assign((id: string) => {
        if (isBuiltin(id)) return requireMapped(id);
        throw closedDoor(`a require made with createRequire, of ${JSON.stringify(id)}`, IMPORT_INSTEAD);
      }, { resolve: refuse("require.resolve made with createRequire") });
    return overriding(real(name), { createRequire, Module: refuse("module.Module"), _load: refuse("module._load"), default: undefined });
  }
  return undefined;
}

/** `target`'s properties with `overrides` in their place (the `default` export included, for an ES module's import). */
function overriding(target: unknown, overrides: Record<string, unknown>): unknown {
  const out: Record<string, unknown> = Object.assign(Object.create(null), target as object, overrides);
  out.default = out;
  return out;
}

/**
 * Closes `process.binding` and `process._linkedBinding` for the rest of this process's life: Node's
 * own file and process calls, below `fs` and `child_process`, which the target reaches through
 * any `process` it can find (`globalThis.process` is the real one). Called once in each process
 * that runs the target's code, before it runs; the sandbox's own code that needs a binding takes
 * it at load (time-limit.ts).
 */
export function closeProcessBindings(): void {
  for (const name of ["binding", "_linkedBinding"]) {
    Object.defineProperty(process, name, {
      value: function refused(): never {
        throw closedDoor(`process.${name}`, IMPORT_INSTEAD);
      },
      configurable: false,
      writable: false,
    });
  }
}
