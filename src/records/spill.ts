import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Where the long strings of a scanned stdin line go (records/stream-scan.ts): stdin cannot be read
 * again, so their bytes are appended to one temporary file, to be read back if an analysis asks for the
 * text. The file goes when the process exits. Memory stays flat; the disk holds what the strings hold.
 */
let spill: { path: string; fd: number; size: number } | null | undefined;

function open(): typeof spill {
  if (spill !== undefined) return spill;
  try {
    const dir = mkdtempSync(join(tmpdir(), "ccforensics-"));
    const path = join(dir, "stdin-strings");
    spill = { path, fd: openSync(path, "w+"), size: 0 };
    process.once("exit", () => {
      try {
        closeSync(spill!.fd);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  } catch {
    spill = null;
  }
  return spill;
}

/** Appends `bytes`; the offset they start at, or -1 when no temporary file can be written (the text is then not kept). */
export function spillBytes(bytes: Buffer): number {
  const s = open();
  if (!s) return -1;
  try {
    const at = s.size;
    for (let done = 0; done < bytes.length;) done += writeSync(s.fd, bytes, done, bytes.length - done, at + done);
    s.size += bytes.length;
    return at;
  } catch {
    spill = null;
    return -1;
  }
}

/** The spill file's path, to read back from. */
export const spillPath = (): string | undefined => spill?.path;
