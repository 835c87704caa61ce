import { createWriteStream } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { RuntimeError, UsageError } from "../errors.js";
import { writeOut } from "../io.js";
import { protectedDirs } from "../output/files.js";
import { configDirHolding, configDirs, evidenceTreeHolding } from "../sources/discover.js";
import { isDir, realish } from "../sources/guard.js";

export interface OutputTarget {
  path: string;
  claudeDir?: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The evidence read: the config dir each lives in is protected too. */
  inputPaths: string[];
}

/**
 * `-o FILE`: the document goes to a file. Evidence is read-only, so, as for `run --out`, a path inside a
 * Claude config dir (searched, the default ones, an input's, or any folder holding `projects/`) is refused.
 */
export function checkOutputPath(t: OutputTarget): string {
  const abs = resolve(t.cwd, t.path);
  const home = t.env.HOME || homedir();
  const dirs = protectedDirs(
    [...configDirs({ claudeDir: t.claudeDir, env: t.env, cwd: t.cwd }), join(home, ".claude"), join(home, ".config", "claude")],
    t.inputPaths,
  );
  const holder = configDirHolding(abs, dirs) ?? evidenceTreeHolding(dirname(abs));
  if (holder) throw new UsageError(`--output ${t.path}: refusing to write inside the Claude config dir ${holder}`);
  // A transcript given by path lies outside any config dir; writing over it would destroy the evidence just read.
  const real = realish(abs);
  if (t.inputPaths.some((p) => realish(resolve(t.cwd, p)) === real))
    throw new UsageError(`--output ${t.path}: refusing to write over an input of this run`);
  if (isDir(abs)) throw new UsageError(`--output ${t.path} is a directory; give a file name`);
  if (!isDir(dirname(abs))) throw new UsageError(`--output ${t.path}: no such directory ${dirname(abs)}`);
  return abs;
}

/** Writes the document a chunk at a time and waits until the file is closed, so exit codes follow a failed write. */
export async function writeFileDocument(abs: string, shownAs: string, chunks: Iterable<string>): Promise<void> {
  const stream = createWriteStream(abs);
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
