import { mkdirSync, statSync } from "node:fs";
import { UsageError } from "../errors.js";
import { checkWritable, type WriteContext } from "./write-guard.js";

export interface ExportDir extends WriteContext {
  to: string;
}

/**
 * `export --to DIR`: evidence is read-only: the shared write guard (write-guard.ts) refuses a folder in a
 * config dir or an evidence tree, symlinks followed. The folder is made when missing; its table files are
 * replaced. Returns the folder, every link in its path resolved.
 */
export function prepareExportDir(t: ExportDir): string {
  const abs = checkWritable("--to", t.to, "folder", t);
  let st;
  try {
    st = statSync(abs);
  } catch {
    try {
      mkdirSync(abs, { recursive: true });
    } catch (e) {
      throw new UsageError(`--to ${t.to}: cannot make the folder: ${(e as Error).message}`);
    }
    return abs;
  }
  if (!st.isDirectory()) throw new UsageError(`--to ${t.to} is not a folder`);
  return abs;
}
