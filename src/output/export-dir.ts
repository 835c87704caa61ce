import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readSync, rmSync, statSync } from "node:fs";
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
 * `SELECT … FROM '*.parquet'` would read stale rows with no sign. A file is removed only when the folder's
 * schema.json (read before the new one replaces it) shows that an earlier export of the other format wrote
 * it: that schema says so and names the file. Only this tool's own names are touched (the known tables, each
 * in the other format, and their `.partial`), and only plain files or links (a link itself is removed, never
 * followed); a file of a table's name that no schema.json claims is kept (`kept`), as is everything else.
 */
export function removeOtherFormat(
  dir: string,
  tables: readonly string[],
  ext: "parquet" | "ndjson",
): { removed: string[]; kept: string[] } {
  const other = otherFormat(ext);
  const claimed = earlierExport(dir, other);
  const removed: string[] = [];
  const kept: string[] = [];
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
      if (!claimed.has(`${t}.${other}`)) {
        kept.push(p);
        continue;
      }
      try {
        rmSync(p);
        removed.push(p);
      } catch (e) {
        throw new RuntimeError(`${p}: cannot remove the earlier ${other} table: ${(e as Error).message}`);
      }
    }
  return { removed, kept };
}

/** The export format that is not `ext`: whose earlier tables an export in `ext` may leave behind. */
export const otherFormat = (ext: "parquet" | "ndjson"): "parquet" | "ndjson" => (ext === "parquet" ? "ndjson" : "parquet");

/** schema.json's largest size this tool writes, with room: a bigger file is no schema of ours. */
const SCHEMA_MAX = 1 << 20;

/**
 * The table files an earlier export in `format` wrote to `dir`, as its schema.json names them; none when there
 * is no such file, it is a link or not a plain file, too big, not JSON, or of another format.
 */
function earlierExport(dir: string, format: string): Set<string> {
  let fd: number;
  try {
    fd = openSync(join(dir, "schema.json"), constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return new Set();
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > SCHEMA_MAX) return new Set();
    const buf = Buffer.alloc(st.size);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const doc = JSON.parse(buf.toString("utf8", 0, n)) as { format?: unknown; tables?: unknown };
    if (doc.format !== format || !Array.isArray(doc.tables)) return new Set();
    return new Set(doc.tables.map((t) => (t as { file?: unknown })?.file).filter((f): f is string => typeof f === "string"));
  } catch {
    return new Set();
  } finally {
    closeSync(fd);
  }
}
