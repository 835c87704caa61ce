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
