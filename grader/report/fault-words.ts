// A disk fault in words, as the disk-fault checks' stories tell it: which call the disk said no to
// ("its 1st write of 2 (writeSync, 10 bytes to ".checkpoint.json.*.tmp")") and how.
import type { DiskSaidNo } from "../contract/finding.js";
import { normaliseName } from "../crash/names.js";
import { displayPath } from "../crash/trace.js";
import { ordinal } from "./sizes.js";

/** "its 1st write of 2 (writeSync, 10 bytes to ".checkpoint.json.*.tmp") wrote only 4 bytes and returned 4". */
export function faultWords({ fault, point, of }: Pick<DiskSaidNo, "fault" | "point" | "of">): string {
  // The checkpoint's folder (fsynced to make a rename durable) is opened at "@/work".
  const file = point.file === "@/work" ? "the checkpoint's folder" : JSON.stringify(normaliseName(displayPath(point.file)));
  const nth = `${ordinal(fault.index + 1)} ${point.on === "create" ? "new file or folder" : point.on} of ${of}`;
  switch (fault.kind) {
    case "short-write":
      return `its ${nth} (${point.api}, ${point.bytes} bytes to ${file}) wrote only ${bytes(fault.bytes)} and returned ${fault.bytes}`;
    case "failed-fsync":
      return `its ${nth} (${point.api} of ${file}) failed with EIO (an I/O error)`;
    case "disk-full":
      if (fault.on === "create") return `the disk was full: its ${nth} (${point.api} creating ${file}) failed with ENOSPC, and so did every write and new file after it`;
      return fault.bytes === 0
        ? `the disk was full: its ${nth} (${point.api}, ${point.bytes} bytes to ${file}) failed with ENOSPC, and so did every write and new file after it`
        : `the disk filled up: its ${nth} (${point.api}, ${point.bytes} bytes to ${file}) got ${bytes(fault.bytes)} in and returned ${fault.bytes}, and every write and new file after it failed with ENOSPC`;
  }
}

function bytes(n: number): string {
  return `${n} byte${n === 1 ? "" : "s"}`;
}

