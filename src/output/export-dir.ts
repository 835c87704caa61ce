import { lstatSync, mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { RuntimeError, UsageError } from "../errors.js";
import { checkWritable, type WriteContext } from "./write-guard.js";

export interface ExportDir extends WriteContext {
  to: string;
}

/**
 * `export --to DIR`: evidence is read-only: the shared write guard (write-guard.ts) refuses a folder in a
 * config dir or an evidence tree, symlinks followed. The folder is made when missing; its table files are
 * replaced (and those of the other format removed after, `removeOtherFormat`). Returns the folder, every link in its path resolved.
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

/**
 * After an export in `ext` is in place: the table files of the other format that an earlier export left
 * in `dir` (`<table>.parquet` beside new `<table>.ndjson`), which schema.json no longer describes, so a
 * `SELECT … FROM '*.parquet'` would read stale rows with no sign. Only this tool's own names are touched
 * (the known tables, each in the other format, and their `.partial`), and only plain files or links (a
 * link itself is removed, never followed); anything else in the folder stays. Returns what was removed.
 */
export function removeOtherFormat(dir: string, tables: readonly string[], ext: "parquet" | "ndjson"): string[] {
  const other = ext === "parquet" ? "ndjson" : "parquet";
  const removed: string[] = [];
  for (const t of tables)
    for (const name of [`${t}.${other}`, `${t}.${other}.partial`]) {
      const p = join(dir, name);
      let st;
      try {
        st = lstatSync(p);
      } catch {
        continue;
      }
      if (!st.isFile() && !st.isSymbolicLink()) continue;
      try {
        rmSync(p);
        removed.push(p);
      } catch (e) {
        throw new RuntimeError(`${p}: cannot remove the earlier ${other} table: ${(e as Error).message}`);
      }
    }
  return removed;
}
