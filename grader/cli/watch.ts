// `npm run grade -- --watch`: grades, then grades again each time a file of the target folder is
// saved, until q or Ctrl-C. Each grade is a `npm run grade` of its own (with the verdict cache,
// so only the deliverables the change touched run again); a save during a grade stops that grade
// and starts the next. Nothing is left behind: a grade stopped or ended removes its scratch
// folders and its processes itself, and the watch waits for it before it goes on or quits.
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** What the folder's files hold, as one comparable text (names and digests). */
function folderContents(folder: string): string {
  const hash = createHash("sha256");
  for (const name of fs.readdirSync(folder).sort()) {
    try {
      const file = path.join(folder, name);
      if (fs.statSync(file).isFile()) hash.update(`${name}\0`).update(fs.readFileSync(file)).update("\0");
    } catch {
      // Gone between the listing and the read: the next change event tells.
    }
  }
  return hash.digest("hex");
}

/** How long the folder must be quiet after a change before a grade starts (an editor's save is several changes). */
const SETTLE_MS = 200;

const CLEAR_SCREEN = "\x1b[2J\x1b[3J\x1b[H";

/** Watches `targetDir` and runs this command line's grade (`gradeArgs`, without --watch) on every save; resolves with the exit status when the student quits. */
export async function watchAndGrade(targetDir: string, gradeArgs: string[], out: NodeJS.WriteStream = process.stdout, input: NodeJS.ReadStream = process.stdin): Promise<number> {
  const label = path.relative(process.cwd(), targetDir) || ".";
  let child: ChildProcess | null = null;
  // Each grade is told to stop once: it cleans up, then ends.
  let told = false;
  let again = false;
  let quitting = false;
  let timer: NodeJS.Timeout | undefined;
  let done!: (code: number) => void;
  const finished = new Promise<number>((resolve) => (done = resolve));

  const run = () => {
    if (quitting) return;
    if (child) {
      // A save during a grade: that grade stops (and cleans up), and the next one starts after it.
      again = true;
      stopGrade();
      return;
    }
    out.write(CLEAR_SCREEN);
    const started = spawn(process.execPath, [process.argv[1]!, ...gradeArgs], { stdio: ["ignore", "inherit", "inherit"] });
    child = started;
    started.on("exit", () => {
      child = null;
      told = false;
      if (quitting) return done(0);
      if (again) {
        again = false;
        return run();
      }
      out.write(`\nWatching ${label}/ for changes: save a file to grade again, press q to quit.\n`);
    });
  };

  const quit = () => {
    if (quitting) return;
    quitting = true;
    clearTimeout(timer);
    watcher.close();
    if (input.isTTY) input.setRawMode(false);
    input.pause();
    if (child) stopGrade();
    else done(0);
  };

  const stopGrade = () => {
    if (told || !child) return;
    told = true;
    child.kill("SIGTERM");
  };

  // A grade changes the folder's modes (as root, to keep it from the code's own user): only a
  // change of what the files hold is a save.
  let contents = folderContents(targetDir);
  const watcher = fs.watch(targetDir, (_event, name) => {
    if (name && (name.startsWith(".") || name.endsWith("~"))) return; // an editor's own files
    clearTimeout(timer);
    timer = setTimeout(() => {
      const now = folderContents(targetDir);
      if (now === contents) return;
      contents = now;
      run();
    }, SETTLE_MS);
  });
  if (input.isTTY) input.setRawMode(true);
  input.on("data", (data: Buffer) => {
    const key = data.toString();
    if (key === "q" || key === "Q" || key === "\x03") quit();
  });
  input.resume();
  process.once("SIGINT", quit).once("SIGTERM", quit);
  run();
  return finished;
}
