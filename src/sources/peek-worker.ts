import { parentPort } from "node:worker_threads";
import { join, sep } from "node:path";
import { peekFile } from "./peek.js";

/**
 * The other end of sources/peek-pool.ts: peeks each batch of old-layout agent files it is sent, in order,
 * and sends back their session ids and sizes as two arrays (cheaper to copy across than 40,000 objects).
 */
parentPort!.on("message", ({ seq, paths, dir }: { seq: number; paths: string[]; dir?: string }) => {
  const ids: Array<string | undefined> = [];
  const bytes: number[] = [];
  // As discover.ts `under` does: names from a normal folder's listing are put under it without join's scan.
  const plain = dir !== undefined && join(dir, "x") === `${dir}${sep}x`;
  for (const p of paths) {
    const peek = peekFile(dir === undefined ? p : plain ? `${dir}${sep}${p}` : join(dir, p));
    ids.push(peek.id);
    bytes.push(peek.bytes);
  }
  parentPort!.postMessage({ seq, ids, bytes });
});
