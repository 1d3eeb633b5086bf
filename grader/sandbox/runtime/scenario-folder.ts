// The folder a scenario runs in (work/, cwd/ and tmp/), made once and emptied after each scenario:
// a crash state is rebuilt thousands of times, and making and removing the folders costs more
// than rebuilding a small state. A folder whose shape the target changed is removed and made anew.
import fs from "node:fs";
import path from "node:path";

const SUBFOLDERS = ["cwd", "tmp", "work"] as const;

/** Scenario folders under `base`, one at a time; `otherTmp` (when set) is the tmp/ every scenario shares. */
export class ScenarioFolder {
  private root: string | null = null;
  private made: string | null = null;
  private shape = "";
  private next = 1;

  constructor(
    private readonly base: string,
    private readonly otherTmp?: string,
  ) {}

  /** An empty scenario folder: work/, cwd/ and tmp/ (a link to `otherTmp` when set). */
  open(): string {
    if (this.root) return this.root;
    const root = path.join(this.base, `s${this.next++}`);
    fs.rmSync(root, { recursive: true, force: true });
    for (const sub of ["work", "cwd", ...(this.otherTmp ? [] : ["tmp"])]) fs.mkdirSync(path.join(root, sub), { recursive: true });
    if (this.otherTmp) {
      fs.mkdirSync(this.otherTmp, { recursive: true });
      fs.symlinkSync(this.otherTmp, path.join(root, "tmp"));
    }
    this.shape = shapeOf(root);
    this.root = this.made = root;
    return root;
  }

  /** Empties the folder for the next scenario; removes it when it is no longer as `open` made it. */
  close(): void {
    const root = this.root;
    if (!root) return;
    // Not reused until it is empty and checked: a close cut short leaves a folder nobody opens again.
    this.root = null;
    try {
      for (const sub of ["work", "cwd", ...(this.otherTmp ? [] : ["tmp"])]) empty(path.join(root, sub));
      if (this.otherTmp) empty(this.otherTmp);
      // Same entries, types and modes: the next scenario cannot tell it from a new folder.
      if (shapeOf(root) === this.shape) {
        this.root = root;
        return;
      }
    } catch {
      // A folder the target made hard to empty (modes, odd entries) goes the slow, thorough way.
    }
    this.removeAll(root);
  }

  /** Removes the last folder made, however far its scenario got, and empties the shared tmp/. */
  discard(): void {
    this.root = null;
    if (this.made) this.removeAll(this.made);
  }

  private removeAll(root: string): void {
    try {
      fs.rmSync(root, { recursive: true, force: true });
    } catch {
      // A folder the target made read-only: as a user of its own (not root), the host must give
      // itself back the right to empty it first.
      writable(root);
      fs.rmSync(root, { recursive: true, force: true });
    }
    if (this.otherTmp) for (const name of fs.readdirSync(this.otherTmp)) fs.rmSync(path.join(this.otherTmp, name), { recursive: true, force: true });
  }
}

/** Gives the owner every right on `dir` and the folders below it (they are the host's user's). */
function writable(dir: string): void {
  fs.chmodSync(dir, 0o700);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) writable(path.join(dir, entry.name));
}

/** Removes what `dir` holds, entry by entry (several times faster than a recursive rmSync). */
function empty(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      empty(full);
      fs.rmdirSync(full);
    } else fs.unlinkSync(full);
  }
}

/** The root's entries with their types and modes, as one string to compare. */
function shapeOf(root: string): string {
  const names = fs.readdirSync(root).sort();
  if (names.join() !== SUBFOLDERS.join()) return `entries: ${names.join()}`;
  return [".", ...names].map((name) => {
    const stat = fs.lstatSync(path.join(root, name));
    return `${name}:${stat.mode}:${stat.uid}`;
  }).join(" ");
}
