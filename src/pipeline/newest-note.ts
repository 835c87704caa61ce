import { sanitize } from "../render/sanitize.js";
import { timeInZone } from "../render/zone.js";
import { statPath } from "../sources/guard.js";
import type { Picked } from "../sources/newest.js";

/** The stderr line that names the session picked for a command given no target (CONTRACT.md). */
export async function newestNote(p: Picked, zone: string, redact = false): Promise<string> {
  const when = p.byMtime ? `${timeInZone(p.time, zone)} (file time; no record has one)` : timeInZone(p.time, zone);
  const note = `newest session: ${p.file.id} · ${p.glance.cwd ?? "(no cwd recorded)"} · ${when}`;
  if (!redact) return sanitize(note);
  // A terminal session gets pasted too: --redact shortens the id and the home dir here as in the document.
  const r = (await import("../report/redact.js")).makeRedactor();
  r.collect(note);
  return sanitize(r.apply(note));
}

/** Bytes of the files to read, for the progress line; undefined when stdin is among them (its size is unknown). */
export function totalBytes(inputs: Array<{ path: string }>): number | undefined {
  let n = 0;
  for (const i of inputs) {
    if (i.path === "-") return undefined;
    // Through the guard, like every other look at evidence.
    const st = statPath(i.path);
    if (st === undefined) return undefined;
    n += st.size;
  }
  return n;
}
