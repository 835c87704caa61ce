import { basename, dirname, join, resolve } from "node:path";
import { isFile } from "../sources/guard.js";

/**
 * The name of the runs-dir folder a transcript was collected into (`<runs>/<run>/<claude dir>/projects/<p>/<id>.jsonl`
 * beside `<runs>/<run>/run.json`, as `ccforensics run` writes it), or null. It is the run's name in `compare`
 * (`none-a`), which a chart shows where a session id would say nothing.
 */
export function runFolderName(transcript: string | null): string | null {
  if (transcript === null || transcript === "-") return null;
  let dir = dirname(resolve(transcript));
  // projects/<p> is two levels; a claude dir nested a level or two inside the run folder still counts.
  for (let up = 0; up < 4; up++) {
    dir = dirname(dir);
    if (isFile(join(dir, "run.json"))) return basename(dir);
  }
  return null;
}
