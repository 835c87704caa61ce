import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Where the long strings of a scanned stdin line go (records/stream-scan.ts): stdin cannot be read
 * again, so their bytes are appended to one temporary file, to be read back if an analysis asks for the
 * text. The file goes when the process exits. Memory stays flat; the disk holds what the strings hold.
 */
let spill: { fd: number; size: number } | null | undefined;

function open(): typeof spill {
  if (spill !== undefined) return spill;
  try {
    // Unlinked as soon as it is open: nothing of the evidence stays on disk, even if the process is
    // killed; the open descriptor is the only way to it (private dir, owner-only file, meanwhile).
    const dir = mkdtempSync(join(tmpdir(), "ccforensics-"));
    const path = join(dir, "stdin-strings");
    try {
      spill = { fd: openSync(path, "w+", 0o600), size: 0 };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    process.once("exit", () => closeSync(spill!.fd));
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

/** The descriptor of the spill file, to read back from. */
export const spillFd = (): number | undefined => spill?.fd;
