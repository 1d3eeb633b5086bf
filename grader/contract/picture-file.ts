// A file of a folder as a picture draws it: its name as the story names it, its size, what it
// holds (old, new, torn, empty, other) and a readable preview of its bytes (none for git's binary
// files: showsPreview).

export interface PictureFile {
  /** As the story names it: "checkpoint.json", ".checkpoint.json.*.tmp". */
  name: string;
  bytes: number;
  /** The old state, the new state, a part of one (torn), nothing, or anything else. */
  holds: "old" | "new" | "torn" | "empty" | "other";
  /** Its first bytes, readable (previewText), and for a torn file the first bytes of what never reached it; none for git's binary files (showsPreview). */
  preview?: FilePreview;
}

/** The files git keeps as text in a `.git` folder, as paths inside it: HEAD and the other *_HEAD, config, description, COMMIT_EDITMSG, packed-refs, refs/ and logs/. */
const GIT_TEXT_FILE = /^(?:[A-Z_]*HEAD|config|description|COMMIT_EDITMSG|packed-refs|(?:refs|logs)\/.+)$/;

/**
 * Whether a picture previews the file it names ("state.json", ".git/objects/61/*"): every file but
 * those git keeps as binary in a `.git` folder (its index, objects, packs). Their bytes are
 * unreadable, and the index holds times and inode numbers, so two grades of one submission would
 * differ there. A lock is git's copy of the file it locks: `.git/index.lock` none, `HEAD.lock` one.
 */
export function showsPreview(name: string): boolean {
  const inGit = /(?:^|\/)\.git\/(.+)$/.exec(name);
  return inGit === null || GIT_TEXT_FILE.test(inGit[1]!.replace(/\.lock$/, ""));
}

/**
 * A readable look at a file's bytes (previewText): its first PREVIEW_BYTES. A torn file is seen
 * where it tears: its last bytes before the tear, then the first bytes of what never reached it.
 */
export interface FilePreview {
  /** The bytes shown; a torn file's may start with "…" (its beginning left out). */
  text: string;
  /** A torn file: the state it is the beginning of goes on for this many bytes, never written ... */
  missingBytes?: number;
  /** ... which begin with these. */
  missingText?: string;
}

/** How many bytes of a file a preview shows, at most; a torn file shows up to half as many on each side of the tear. */
export const PREVIEW_BYTES = 96;

/**
 * `bytes` as readable text: UTF-8 as the characters it encodes, with \\, \n and \t escaped, and
 * anything else (a control character, a byte that is not part of a whole UTF-8 character, as at
 * a tear) as \xNN.
 */
export function previewText(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    const length = b >= 0xf0 && b < 0xf8 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    const char = length > 1 ? wholeCharacter(bytes.subarray(i, i + length), length) : null;
    if (char !== null) {
      out += char;
      i += length;
      continue;
    }
    if (b === 0x0a) out += "\\n";
    else if (b === 0x09) out += "\\t";
    else if (b === 0x5c) out += "\\\\";
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\x${b.toString(16).padStart(2, "0")}`;
    i++;
  }
  return out;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The one printable character `bytes` encode in UTF-8 (all `length` of them), or null. */
function wholeCharacter(bytes: Uint8Array, length: number): string | null {
  if (bytes.length < length) return null;
  try {
    const char = UTF8.decode(bytes);
    // A control or formatting character (a direction mark, say) would be invisible or move the text: it shows as bytes.
    return /^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]$/u.test(char) ? char : null;
  } catch {
    return null;
  }
}

/** The preview of a file holding `data`; of a torn one when `whole` is the state it is the beginning of. */
export function filePreview(data: Uint8Array, whole?: Uint8Array): FilePreview {
  if (!whole) return { text: previewText(data.subarray(0, PREVIEW_BYTES)) + (data.length > PREVIEW_BYTES ? "…" : "") };
  const side = PREVIEW_BYTES / 2;
  const missing = whole.subarray(data.length);
  return {
    text: (data.length > side ? "…" : "") + previewText(data.subarray(Math.max(0, data.length - side))),
    missingBytes: missing.length,
    missingText: previewText(missing.subarray(0, side)) + (missing.length > side ? "…" : ""),
  };
}

