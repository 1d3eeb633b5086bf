// The child's ends of its pipes to the grader (see messages/launch.ts): what it tells the grader,
// one JSON line a message on its report pipe, and, for an actor, the lines it is told.
import fs from "node:fs";
import { StringDecoder } from "node:string_decoder";
import type { ActorMessage } from "../messages/actor.js";
import { REPORT_FD } from "../messages/launch.js";
import type { ProcessMessage } from "../messages/process.js";

/** Tells the grader `message`, as one line on the report pipe (a write that has ended when this returns). */
export function report(message: ProcessMessage | ActorMessage): void {
  fs.writeSync(REPORT_FD, JSON.stringify(message) + "\n");
}

/** Reads lines from a pipe, blocking: the process has nothing else to do until the grader speaks. */
export class LineReader {
  private buffered = "";
  private readonly chunk = Buffer.alloc(64 * 1024);
  private readonly decoder = new StringDecoder("utf8");

  constructor(private readonly fd: number) {}

  /** The next line, or null once the pipe is closed. */
  next(): string | null {
    for (;;) {
      const end = this.buffered.indexOf("\n");
      if (end >= 0) {
        const line = this.buffered.slice(0, end);
        this.buffered = this.buffered.slice(end + 1);
        return line;
      }
      let n: number;
      try {
        n = fs.readSync(this.fd, this.chunk, 0, this.chunk.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EAGAIN") {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
          continue;
        }
        return null;
      }
      if (n === 0) return null;
      this.buffered += this.decoder.write(this.chunk.subarray(0, n));
    }
  }
}
