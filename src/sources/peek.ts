import { parseJsonBounded } from "./json-depth.js";
import { closeSync, fstatSync, readSync } from "node:fs";
import { join } from "node:path";
import { openListedFile } from "./guard.js";

/** What a glance at an old-layout agent file says: the session its first records name, and its size at open. */
export interface Peek {
  id: string | undefined;
  bytes: number;
}

const PEEK_BYTES = 64 * 1024;
// One buffer for every peek (sync, decoded before the next): a fresh 64 KiB per old-layout agent file was
// 2.6 GB of garbage over 40,000 of them.
const peekBuffer = Buffer.allocUnsafe(PEEK_BYTES);

/**
 * `sessionIdOf` for the common case, without the stream machinery: the id in a complete line within the
 * first 64 KiB. undefined when it is not there (the caller then reads on with `sessionIdOf`).
 */
export function peekSessionId(path: string): string | undefined {
  return peekFile(path).id;
}

/**
 * `peekSessionId` and the file's size. A read shorter than the peek is the whole file (a regular file reads
 * short only at its end), so its length is the size and no fstat is needed: 40,000 old-layout agent files
 * cost 40,000 fstats and Stats objects. A full peek asks fstat, which also turns away what is no regular
 * file (a device read in place of a listed file); a folder or FIFO reads nothing, as before.
 */
export function peekFile(path: string): Peek {
  let text: string;
  let bytes: number;
  const fd = openListedFile(path);
  if (fd === undefined) return { id: undefined, bytes: 0 };
  try {
    const buf = peekBuffer;
    const n = readSync(fd, buf, 0, PEEK_BYTES, 0);
    if (n < PEEK_BYTES) bytes = n;
    else {
      const st = fstatSync(fd);
      if (!st.isFile()) return { id: undefined, bytes: 0 };
      bytes = st.size;
    }
    const end = n > 0 ? buf.subarray(0, n).lastIndexOf(0x0a) : -1;
    // As the line splitter does: a UTF-8 BOM before the first line is no part of it.
    const from = end >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
    text = buf.toString("utf8", from, end < 0 ? from : end);
  } catch {
    return { id: undefined, bytes: 0 };
  } finally {
    closeSync(fd);
  }
  for (const line of text.split("\n").slice(0, 50)) {
    let v: unknown;
    try {
      v = parseJsonBounded(line, null);
    } catch {
      continue;
    }
    if (v === null || typeof v !== "object" || Array.isArray(v)) continue;
    const id = (v as Record<string, unknown>).sessionId ?? (v as Record<string, unknown>).session_id;
    if (typeof id === "string") return { id, bytes };
  }
  return { id: undefined, bytes };
}

/** `peekFile` of each of `paths`, or with `dir` of each name in it. */
export function peekAll(paths: string[], dir?: string): Peek[] {
  return paths.map((p) => peekFile(dir === undefined ? p : join(dir, p)));
}
