import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Lines at least this long get a full collection after them (see collectAfterHugeLine). */
export const HUGE_LINE_BYTES = 8 * 1024 * 1024;

let gc: (() => void) | null | undefined;

/**
 * Multi-megabyte lines leave multi-megabyte strings behind (the line, its parse, the tool result text).
 * They live in V8's large-object space until a major GC, which V8 may put off across several such
 * lines; peak memory then grows with the number of huge lines instead of with the longest one. A full
 * collection after each huge line keeps memory bounded by the longest line. It costs a few ms each, and
 * huge lines are rare. `--expose-gc` is turned on at run time; a new context hands back `gc`.
 */
export function collectAfterHugeLine(): void {
  if (gc === undefined) {
    try {
      setFlagsFromString("--expose-gc");
      gc = runInNewContext("gc") as () => void;
    } catch {
      gc = null;
    }
  }
  gc?.();
}

let bounded = false;

/**
 * After each full collection V8 lets the old generation grow to a multiple of what survived, up to 4×;
 * over a long read that headroom fills with promoted garbage, and peak RSS grew with the input (180 MB
 * at 1 GB of transcript against 139 MB at 200 MB). Growth by half of what survived keeps it flat (152
 * MB at 1 GB) for no measurable time; the flag is read at every collection, so setting it here works.
 * Called once a big input is read, so short runs and library use keep V8's defaults.
 */
export function boundHeapGrowth(): void {
  if (bounded) return;
  bounded = true;
  try {
    setFlagsFromString("--heap-growing-percent=50");
  } catch {
    // A runtime without the flag keeps its own growth.
  }
  holdYoungGeneration();
}

/**
 * One full collection between reading a big input and writing its document: what the read left behind
 * goes, and the next heap limit is set from what the document needs (bounded growth above), not from the
 * read's garbage. Only once a big input was read (boundHeapGrowth); a few tens of ms then.
 */
export function collectBeforeWriting(): void {
  if (bounded) collectAfterHugeLine();
}

/**
 * The young generation doubles whenever as many bytes survived scavenges as it holds, up to 2 × 16 MiB:
 * over a long read everything survives briefly once, so it always reached its maximum, and that was
 * most of the difference between 200 MB and 1 GB of transcript (requests: 110 against 155 MB peak RSS).
 * A growth factor of 1 keeps it at the size it has when a big input opens (2 × 2 MiB for `requests`)
 * for the same CPU time (scavenges are more frequent but each copies as little). V8 reads the factor at
 * each growth, but every new isolate raises it back to 2 for the whole process (Heap::ConfigureHeap
 * clamps it; set once, it had no effect): the hash worker calls this once it runs, and the file hasher
 * every 8 MiB it is handed, for any other thread started meanwhile (sources/hash-worker.ts, hasher.ts).
 */
export function holdYoungGeneration(): void {
  try {
    setFlagsFromString("--semi-space-growth-factor=1");
  } catch {
    // A runtime without the flag grows its young generation its own way.
  }
}

/**
 * `s` in memory of its own. V8 cuts strings (slice, regex groups) as views that keep the whole string
 * they were cut from alive, and joins them as pairs that keep both halves: 4 KiB kept of a 50 KiB tool
 * input holds all 50 KiB. A prepended space flattens the string into a new one, which the slice then
 * points into; short strings are always copied anyway (V8 makes no view under 13 units).
 */
export function detached(s: string): string;
export function detached(s: string | null): string | null;
export function detached(s: string | null): string | null {
  return s === null || s.length < 13 ? s : ` ${s}`.slice(1);
}

/** `o` with each of its string properties `detached`, in place (a message parsed out of a long text). */
export function detachStrings<T extends object>(o: T): T {
  const r = o as Record<string, unknown>;
  for (const k of Object.keys(r)) {
    const v = r[k];
    if (typeof v === "string") r[k] = detached(v);
  }
  return o;
}
