import * as crypto from "node:crypto";
import { closeSync, fstatSync, readSync } from "node:fs";
import { parentPort } from "node:worker_threads";
import { openListedFile } from "./guard.js";

/**
 * The other end of sources/prefetch.ts: reads each batch of small files it is sent, in order, and sends
 * back their bytes packed in one transferred buffer with their lengths (-1: left to the main thread) and
 * sha256 digests, so the main thread neither reads nor hashes them.
 */
interface Ask {
  seq: number;
  paths: string[];
  maxFile: number;
  maxBatch: number;
}

let scratch = Buffer.allocUnsafe(1 << 16);

parentPort!.on("message", ({ seq, paths, maxFile, maxBatch }: Ask) => {
  const lens = new Int32Array(paths.length).fill(-1);
  const hashes: string[] = [];
  const parts: Buffer[] = [];
  let total = 0;
  for (let i = 0; i < paths.length && total < maxBatch; i++) {
    const got = readSmall(paths[i]!, maxFile);
    if (got === undefined) continue;
    lens[i] = got.length;
    hashes[i] = sha256(got);
    parts.push(got);
    total += got.length;
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  parentPort!.postMessage({ seq, lens, bytes, hashes }, [bytes.buffer, lens.buffer]);
});

/** As sources/hasher.ts `inlineHasher` digests a file read in one chunk: one `crypto.hash` call where Node has it. */
const oneShot = (crypto as { hash?: (algorithm: string, data: Buffer, encoding: "hex") => string }).hash;
const sha256 = (b: Buffer): string => (oneShot ? oneShot("sha256", b, "hex") : crypto.createHash("sha256").update(b).digest("hex"));

/**
 * A regular file of at most `max` bytes, read to its end as sources/line-chunks.ts reads it (a short read
 * once the size seen at open is reached is the end); undefined for anything else: the main thread then
 * opens it itself and says what is wrong, as it always did.
 */
function readSmall(path: string, max: number): Buffer | undefined {
  const fd = openListedFile(path);
  if (fd === undefined) return undefined;
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > max) return undefined;
    if (scratch.length < max + 1) scratch = Buffer.allocUnsafe(max + 1);
    let filled = 0;
    for (;;) {
      const asked = max + 1 - filled;
      const n = readSync(fd, scratch, filled, asked, null);
      filled += n;
      if (filled > max) return undefined;
      if (n === 0 || (n < asked && filled >= st.size)) return Buffer.from(scratch.subarray(0, filled));
    }
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
