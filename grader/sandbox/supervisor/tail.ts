// The end of what a child printed, for messages: its last bytes (or characters), however much it
// printed, and how much that was.

/** The last `max` bytes of a stream (or of two, as their chunks arrive), or its last `max` characters; and how many bytes it carried in all. */
export class Tail {
  private pieces: (Buffer | string)[] = [];
  private kept = 0;
  total = 0;

  constructor(
    private readonly max: number,
    /** "chars": each chunk is decoded as it arrives, and the tail is counted in characters. */
    private readonly unit: "bytes" | "chars" = "bytes",
  ) {}

  add(chunk: Buffer): void {
    this.total += chunk.length;
    const piece = this.unit === "chars" ? chunk.toString() : chunk;
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
