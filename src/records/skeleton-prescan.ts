import { isUtf8 } from "node:buffer";
import {
  CUT_CAP,
  CUT_WORDS,
  E_CUT_FROM,
  E_CUTS,
  E_LEN,
  E_SKEL_FROM,
  E_SKEL_LEN,
  E_START,
  E_STATUS,
  ENTRY_CAP,
  ENTRY_WORDS,
  SKEL_CAP,
  SKELETON,
  WHOLE,
  slotScanner,
  type PrescanTable,
} from "../sources/prescan-table.js";
import { MAX_DEPTH } from "./json.js";
import { cutsOf, NO_ROOM, SKELETON_MIN_LINE, writeSkeleton } from "./skeleton.js";
import { scanLine, type Cut } from "./skeleton-scan.js";
import { inPlace } from "./wasm-string.js";

const LF = 0x0a;
/** Lines this long are scanned here even when the main thread waits for the slot. */
export const KEEP_SCANNING = 1 << 20;
const CR = 0x0d;

/**
 * The reader worker's half of records/skeleton.ts, run on a slot before it is handed over
 * (sources/slot-filler.ts): every line of the slot's first `len` bytes that ends in a newline and is
 * SKELETON_MIN_LINE bytes or more long, as the line splitter will cut it (CR dropped, the file's BOM
 * dropped), is checked as UTF-8, scanned (the worker's own WebAssembly scanner) and written into `t` as
 * its skeleton and cuts, or marked WHOLE. The main thread then only decodes and parses the skeleton
 * (records/skeleton.ts `parseSkeleton`). Lines that do not fit the table are left to the main thread, and
 * so are the rest but the longest once `stop()` says so (the main thread waits for this slot: it is
 * better off doing them itself than idle; sources/feed-slots.ts WANT).
 */
export function prescanSlot(
  slot: Buffer,
  len: number,
  atFileStart: boolean,
  t: PrescanTable,
  stop?: () => boolean,
  memory?: WebAssembly.Memory,
): void {
  const w = t.words;
  let count = 0;
  let cutN = 0;
  let skelN = 0;
  try {
    for (let s = 0; s < len;) {
      const nl = slot.indexOf(LF, s);
      if (nl < 0 || nl >= len) break;
      let a = s;
      let e = nl;
      s = nl + 1;
      if (e - a < SKELETON_MIN_LINE) continue;
      if (slot[e - 1] === CR) e--;
      if (a === 0 && atFileStart && slot[0] === 0xef && slot[1] === 0xbb && slot[2] === 0xbf) a = 3;
      if (e - a < SKELETON_MIN_LINE) continue;
      if (count === ENTRY_CAP) break;
      // Once the main thread waits, only the longest lines are still scanned here: its own scanner's
      // memory would grow to hold them (and stay grown), and they are few.
      if (e - a < KEEP_SCANNING && stop?.()) continue;
      const line = slot.subarray(a, e);
      const at = t.entries + count * ENTRY_WORDS;
      let status = WHOLE;
      let skelLen = 0;
      let cutCount = 0;
      const cuts = !isUtf8(line) ? undefined : memory ? cutsInPlace(memory, slot, a, e) : cutsOf(line, MAX_DEPTH, false);
      if (cuts) {
        if (cutN + cuts.length > CUT_CAP) break;
        const end = writeSkeleton(line, cuts, t.skel, skelN, SKEL_CAP);
        if (end === NO_ROOM) break;
        if (end >= 0) {
          status = SKELETON;
          skelLen = end - skelN;
          cutCount = cuts.length;
          for (let k = 0; k < cuts.length; k++) {
            const c = cuts[k]!;
            const cw = t.cuts + (cutN + k) * CUT_WORDS;
            w[cw] = c.from;
            w[cw + 1] = c.to;
            w[cw + 2] = c.units;
            w[cw + 3] = c.escapes;
            w[cw + 4] = c.uEscapes;
            w[cw + 5] = c.fours;
          }
        }
      }
      w[at + E_START] = a;
      w[at + E_LEN] = e - a;
      w[at + E_STATUS] = status;
      w[at + E_SKEL_FROM] = skelN;
      w[at + E_SKEL_LEN] = skelLen;
      w[at + E_CUT_FROM] = cutN;
      w[at + E_CUTS] = cutCount;
      skelN += skelLen;
      cutN += cutCount;
      count++;
    }
  } finally {
    // Published with the slot (its state is stored after this, with Atomics).
    w[0] = count;
  }
}

/**
 * The cuts of `slot[a, e)`, scanned where the bytes are: `slot` is the view from SHARED_AT of `memory`, a
 * shared WebAssembly memory (sources/feed-slots.ts), so no copy into the scanner's own memory. The byte
 * after the line (its CR or LF) is a 0 while it is scanned, as the scanner wants.
 */
function cutsInPlace(memory: WebAssembly.Memory, slot: Buffer, a: number, e: number): Cut[] | undefined {
  const line = slot.subarray(a, e);
  const after = slot[e]!;
  slot[e] = 0;
  try {
    const bytes = inPlace(memory, slot.byteOffset + a);
    return scanLine(bytes ?? line, line, MAX_DEPTH, bytes !== null, false);
  } finally {
    slot[e] = after;
  }
}

// The reader worker finds the scan here (it loads this module before sources/hash-worker.ts).
slotScanner.prescan = prescanSlot;
