// The end of what a child printed, for messages: its last bytes (or characters), however much it
// printed, and how much that was.
import { StringDecoder } from "node:string_decoder";

/** The last `max` bytes of a stream (or of two, as their chunks arrive), or its last `max` characters; and how many bytes it carried in all. */
export class Tail {
  private pieces: (Buffer | string)[] = [];
  /** In "chars", one decoder per stream: a character split between two chunks stays one character. */
  private readonly decoders = new Map<string, StringDecoder>();
  private kept = 0;
  total = 0;

  constructor(
    private readonly max: number,
    /** "chars": each chunk is decoded as it arrives, and the tail is counted in characters. */
    private readonly unit: "bytes" | "chars" = "bytes",
  ) {}

  /** Adds a chunk of the stream `stream` ("stdout", "stderr": a tail may keep two). */
  add(chunk: Buffer, stream = "out"): void {
    this.total += chunk.length;
    if (this.unit === "chars" && !this.decoders.has(stream)) this.decoders.set(stream, new StringDecoder("utf8"));
    const piece = this.unit === "chars" ? this.decoders.get(stream)!.write(chunk) : chunk;
    this.pieces.push(piece);
    this.kept += piece.length;
    while (this.pieces.length > 1 && this.kept - this.pieces[0]!.length >= this.max) this.kept -= this.pieces.shift()!.length;
  }

  text(): string {
    if (this.unit === "chars") return this.pieces.join("").slice(-this.max);
    const all = Buffer.concat(this.pieces as Buffer[]);
    return all.subarray(Math.max(0, all.length - this.max)).toString("utf8");
  }
}
