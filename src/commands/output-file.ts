import { createWriteStream } from "node:fs";
import { dirname } from "node:path";
import { RuntimeError, UsageError } from "../errors.js";
import { writeOut } from "../io.js";
import { checkWritable, openForWrite, type WriteContext } from "../output/write-guard.js";
import { isDir } from "../sources/guard.js";

export interface OutputTarget extends WriteContext {
  path: string;
}

/**
 * `-o FILE`: the document goes to a file. Evidence is read-only: the shared write guard (write-guard.ts)
 * refuses a config dir, an evidence tree or an input of this run, symlinks followed. Returns the path to
 * open, every link in it resolved.
 */
export function checkOutputPath(t: OutputTarget): string {
  const target = checkWritable("--output", t.path, "file", t);
  if (isDir(target)) throw new UsageError(`--output ${t.path} is a directory; give a file name`);
  if (!isDir(dirname(target))) throw new UsageError(`--output ${t.path}: no such directory ${dirname(target)}`);
  return target;
}

/** Writes the document a chunk at a time and waits until the file is closed, so exit codes follow a failed write. */
export async function writeFileDocument(abs: string, shownAs: string, chunks: Iterable<string>): Promise<void> {
  let fd: number;
  try {
    fd = openForWrite(abs);
  } catch (e) {
    throw new RuntimeError(`--output ${shownAs}: ${(e as Error).message}`);
  }
  const stream = createWriteStream("", { fd });
  const failed = new Promise<never>((_, rej) => stream.once("error", (e) => rej(new RuntimeError(`--output ${shownAs}: ${e.message}`))));
  failed.catch(() => undefined);
  for (const c of chunks) await Promise.race([writeOut(stream, c), failed]);
  // end's callback is handed the write's error, and before the "error" event: it must not count as done.
  await Promise.race([
    new Promise<void>((res, rej) =>
      stream.end((e?: Error | null) => (e ? rej(new RuntimeError(`--output ${shownAs}: ${e.message}`)) : res())),
    ),
    failed,
  ]);
}
