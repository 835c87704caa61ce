import {
  block,
  br,
  brIf,
  call,
  end,
  get,
  store32,
  i32,
  i64,
  if_,
  I32,
  I64,
  load8,
  loop,
  moduleBytes,
  op,
  op64,
  ret,
  set,
  splat,
  v,
  V128,
  type Code,
  type Item,
} from "./wasm-asm.js";

/**
 * A JSON string body scanner in WebAssembly SIMD: from just after an opening quote it finds the closing
 * quote, checks what JSON.parse checks inside a string (no raw control character, only the escapes
 * `\" \\ \/ \b \f \n \r \t \uXXXX`) and counts the UTF-16 units the decoded string will have, without
 * decoding. The caller has checked the bytes are valid UTF-8 (buffer.isUtf8): then a 4-byte sequence is
 * 2 units, any other sequence 1, and every escape 1 (a `\uD83D\uDE00` pair is two escapes, two units).
 *
 * Tool output has an escape every 25 bytes or so (`\n`, `\"`), so escapes are handled inside a 64-byte
 * step, with bit masks: the escaped bytes are found from the backslash runs (simdjson's odd-run trick),
 * the first unescaped quote ends the string, and the units are the bytes taken minus escape backslashes
 * and continuation bytes, plus 4-byte leads. A step that meets anything else (a control character, an
 * invalid escape, a `\u` whose digits run past it) is redone byte by byte by the plain loop, which is
 * also the reference. A JavaScript loop (records/skeleton.ts) does the same where WebAssembly is missing.
 */

/** What `scan` returns besides a quote position. */
export const SCAN_INVALID = -1;
/** The bytes ended before the string did (or inside an escape): go on from `stoppedAt()` with more. */
export const SCAN_MORE = -2;

// Locals of `scan`, parameters first: i32 up to UN, i64 from Q to UC, v128 from V on (V0..V0+3 hold a step's bytes).
// EC, FC and UN count escapes, 4-byte leads and `\u` escapes, from which string-bytes.ts gets UTF-8 bytes and code points.
const I = 0,
  END = 1,
  U = 2,
  SLOW = 3,
  P = 4,
  E = 5,
  SP = 6,
  CM = 7,
  LM = 8,
  EC = 9,
  FC = 10,
  UN = 11,
  Q = 12,
  B = 13,
  ETC = 14,
  ED = 15,
  ES = 16,
  M = 17,
  T = 18,
  UC = 19,
  V = 20,
  V0 = 21;
/** Where `scan` leaves its counts and (for SCAN_MORE) where it stopped: reading memory costs less than a WebAssembly.Global. */
const UNITS_AT = 0,
  STOP_AT = 4,
  ESCAPES_AT = 8,
  FOURS_AT = 12,
  US_AT = 16;
/** The line is loaded from here on. */
const BASE = 32;
const keep = (addr: number, l: number): Code => [i32(addr), get(l), store32(0)];
const keepCounts = (): Code => [keep(UNITS_AT, U), keep(ESCAPES_AT, EC), keep(FOURS_AT, FC), keep(US_AT, UN)];
const HEX = 0;

/** local += the i32 result of `code` */
const addTo = (l: number, ...code: Item[]): Code => [get(l), code, op.add, set(l)];
const bitmask = (vec: Code): Code => [vec, v.bitmask8];
/** The 64-bit mask of the 64 bytes at `I`: bit k set when `lane(k)` (a byte-vector test of V0+k) holds for byte k. */
const mask64 = (lane: (vk: Code) => Code): Code =>
  [0, 1, 2, 3].map((k) => [bitmask(lane(get(V0 + k))), op64.extendU, ...(k ? [i64(BigInt(16 * k)), op64.shl, op64.or] : [])]);
const eqByte = (b: number) => (vk: Code) => [vk, splat(b), v.eq8];
/** Bytes that may follow a backslash: bit n of LO[low nibble] and of HI[high nibble] meet for `" / \ b f n r t u`. */
const ESC_LO = [0, 0, 13, 0, 8, 8, 4, 0, 0, 0, 0, 0, 2, 0, 4, 1];
const ESC_HI = [0, 0, 1, 0, 0, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0];
const badEscape = (vk: Code): Code => [
  [v.const(ESC_LO), vk, splat(0x0f), v.and, v.swizzle],
  [v.const(ESC_HI), vk, i32(4), v.shrU8, v.swizzle],
  [v.and, splat(0), v.eq8],
];
const isHex = (vk: Code): Code => [
  [vk, splat(0x30), v.sub8, splat(10), v.ltU8],
  [vk, splat(0x20), v.or, splat(0x61), v.sub8, splat(6), v.ltU8, v.or],
];
const ODD = 0xaaaaaaaaaaaaaaaan;

/** hex(c): 1 when c is an ASCII hex digit. */
const hexBody = (): Code => [
  get(0),
  i32(0x30),
  op.sub,
  i32(10),
  op.ltU,
  get(0),
  i32(0x20),
  op.or,
  i32(0x61),
  op.sub,
  i32(6),
  op.ltU,
  op.or,
];
const hexAt = (k: number): Code => [get(I), load8(k), call(HEX)];
const escapeOk = (): Code => [0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74].map((x, k) => [get(E), i32(x), op.eq, k ? op.or : []]);
const popcntIn = (a: number, mask: Item): Code => [get(a), mask, op64.and, op64.popcnt, op.wrap];

/** 64 bytes in one step; any surprise goes to `$slow` before anything is counted, with SLOW set to where the step would end. */
const fastStep = (): Code => [
  [get(I), i32(64), op.add, get(END), op.gtU, if_("short"), get(END), set(SLOW), br("slow"), end],
  [get(I), i32(64), op.add, set(SLOW)],
  [0, 1, 2, 3].map((k) => [get(I), v.load(16 * k), set(V0 + k)]),
  [mask64(eqByte(0x22)), set(Q), mask64(eqByte(0x5c)), set(B)],
  // Escape sequences from the backslash runs (nothing is escaped at the start: a step never ends inside an escape).
  [get(B), i64(1n), op64.shl, i64(ODD), op64.or, get(B), op64.sub, i64(ODD), op64.xor, set(ETC)],
  [get(ETC), get(B), op64.xor, set(ED), get(ETC), get(B), op64.and, set(ES)],
  [get(Q), get(ED), i64(-1n), op64.xor, op64.and, set(T)],
  // P bytes are taken (M their bits): up to the closing quote, else 64, or 63 when the last byte starts an escape.
  block("found"),
  [block("open"), get(T), op64.eqz, brIf("open")],
  [get(T), op64.ctz, op.wrap, set(P), i64(1n), get(T), op64.ctz, op64.shl, i64(1n), op64.sub, set(M), br("found"), end],
  [i32(64), get(ES), i64(63n), op64.shrU, op.wrap, op.sub, set(P), i64(-1n), get(ES), i64(63n), op64.shrU, op64.shrU, set(M)],
  end,
  [block("noctl"), [0, 1, 2, 3].map((k) => [get(V0 + k), splat(0x20), v.ltU8, k ? v.or : []]), v.anyTrue, op.eqz, brIf("noctl")],
  [mask64((vk) => [vk, splat(0x20), v.ltU8]), get(M), op64.and, op64.eqz, op.eqz, brIf("slow"), end],
  block("noesc"),
  [get(ED), get(M), op64.and, op64.eqz, brIf("noesc")],
  [mask64(badEscape), get(ED), op64.and, get(M), op64.and, op64.eqz, op.eqz, brIf("slow")],
  [mask64(eqByte(0x75)), get(ED), op64.and, get(M), op64.and, set(UC)],
  [block("nou"), get(UC), op64.eqz, brIf("nou")],
  // A \u's four digits must lie in this step and be hex; the escape is 6 bytes for 1 unit.
  [get(UC), i64(59n), op64.shrU, op64.eqz, op.eqz, brIf("slow")],
  [[1n, 2n, 3n, 4n].map((s, k) => [get(UC), i64(s), op64.shl, k ? op64.or : []]), mask64(isHex), i64(-1n), op64.xor, op64.and],
  [op64.eqz, op.eqz, brIf("slow")],
  [get(U), get(UC), op64.popcnt, op.wrap, i32(2), op.shl, op.sub, set(U), addTo(UN, get(UC), op64.popcnt, op.wrap), end],
  end,
  addTo(U, get(P), popcntIn(ES, get(M)), op.sub),
  addTo(EC, popcntIn(ES, get(M))),
  [block("ascii"), bitmask([get(V0), get(V0 + 1), v.or, get(V0 + 2), v.or, get(V0 + 3), v.or]), op.eqz, brIf("ascii")],
  // LM (the slow loop's, free here) holds this step's 4-byte leads.
  [
    popcntIn(
      M,
      mask64((vk) => [vk, splat(0xf0), v.geU8]),
    ),
    set(LM),
  ],
  addTo(
    U,
    get(LM),
    popcntIn(
      M,
      mask64((vk) => [vk, splat(0xc0), v.ltS8]),
    ),
    op.sub,
  ),
  addTo(FC, get(LM)),
  end,
  [get(T), op64.eqz, op.eqz, if_("quote"), keepCounts(), get(I), get(P), op.add, ret, end],
  [addTo(I, get(P)), br("top")],
];

/** The plain loop up to SLOW (16 bytes at a time while nothing special comes, else byte by byte), then back to the steps. */
const slowLoop = (): Code => [
  loop("s"),
  [get(I), get(END), op.geU, brIf("more"), get(I), get(SLOW), op.geU, brIf("top")],
  block("one"),
  [get(I), i32(16), op.add, get(END), op.gtU, brIf("one")],
  [get(I), v.load(0), set(V)],
  [get(V), splat(0xc0), v.and, splat(0x80), v.eq8, v.bitmask8, set(CM)],
  [get(V), splat(0xf0), v.geU8, v.bitmask8, set(LM)],
  [get(V), splat(0x22), v.eq8, get(V), splat(0x5c), v.eq8, v.or, get(V), splat(0x20), v.ltU8, v.or, v.bitmask8, set(SP)],
  [get(SP), op.eqz, if_("plain")],
  [
    addTo(U, i32(16), get(CM), op.popcnt, op.sub, get(LM), op.popcnt, op.add),
    addTo(FC, get(LM), op.popcnt),
    addTo(I, i32(16)),
    br("s"),
    end,
  ],
  // Count the plain bytes before the first special one, then handle it below.
  [get(SP), op.ctz, set(P), i32(1), get(P), op.shl, i32(1), op.sub, set(SP)],
  addTo(U, get(P), get(CM), get(SP), op.and, op.popcnt, op.sub, get(LM), get(SP), op.and, op.popcnt, op.add),
  addTo(FC, get(LM), get(SP), op.and, op.popcnt),
  addTo(I, get(P)),
  end,
  [get(I), load8(0), set(P)],
  [get(P), i32(0x22), op.eq, if_("q"), keepCounts(), get(I), ret, end],
  [get(P), i32(0x5c), op.eq, if_("bs")],
  [get(I), i32(1), op.add, get(END), op.geU, brIf("more"), get(I), load8(1), set(E)],
  [get(E), i32(0x75), op.eq, if_("u")],
  [get(I), i32(6), op.add, get(END), op.gtU, brIf("more")],
  [hexAt(2), hexAt(3), op.and, hexAt(4), op.and, hexAt(5), op.and, op.eqz, brIf("invalid")],
  [addTo(U, i32(1)), addTo(EC, i32(1)), addTo(UN, i32(1)), addTo(I, i32(6)), br("s"), end],
  [escapeOk(), op.eqz, brIf("invalid"), addTo(U, i32(1)), addTo(EC, i32(1)), addTo(I, i32(2)), br("s"), end],
  [get(P), i32(0x20), op.ltU, brIf("invalid")],
  // A lead or ASCII byte is a unit, a 4-byte lead one more; continuation bytes none.
  addTo(U, get(P), i32(0xc0), op.and, i32(0x80), op.ne, get(P), i32(0xf0), op.geU, op.add),
  addTo(FC, get(P), i32(0xf0), op.geU),
  [addTo(I, i32(1)), br("s")],
  end,
];

// Built when first needed: a run over small files never assembles the scanner.
const scanBody = (): Code => [
  [block("invalid"), block("more"), loop("top")],
  [block("slow"), fastStep(), end],
  slowLoop(),
  [end, end],
  [keepCounts(), keep(STOP_AT, I), i32(SCAN_MORE), ret],
  end,
  i32(SCAN_INVALID),
];

interface Exports {
  memory: WebAssembly.Memory;
  scan(i: number, end: number): number;
}

let ex: Exports | null | undefined;
let mem = new Uint8Array(0);
/** `mem` from BASE on: what loadBytes hands out. */
let lineView = mem;
let words = new Int32Array(0);

function views(m: WebAssembly.Memory): void {
  mem = new Uint8Array(m.buffer);
  lineView = mem.subarray(BASE);
  words = new Int32Array(m.buffer, 0, 5);
}

/** The scanner, or null where WebAssembly SIMD is not available (the JavaScript path then does the work). */
function load(): Exports | null {
  if (ex !== undefined) return ex;
  try {
    const mod = moduleBytes([
      { params: [I32], results: [I32], locals: [], code: hexBody() },
      {
        params: [I32, I32],
        results: [I32],
        locals: [
          [10, I32],
          [8, I64],
          [5, V128],
        ],
        code: scanBody(),
        export: "scan",
      },
    ]);
    ex = new WebAssembly.Instance(new WebAssembly.Module(mod)).exports as unknown as Exports;
    views(ex.memory);
  } catch {
    ex = null;
  }
  return ex;
}

/**
 * The scanner's memory holding `src` from offset 0 and a 0 byte after it (no JSON token holds one, so a
 * reader that runs past the end stops there), or null without WebAssembly. Valid until the next call.
 */
export function loadBytes(src: Uint8Array): Uint8Array | null {
  const e = load();
  if (!e) return null;
  if (lineView.length < src.length + 1) {
    e.memory.grow(Math.ceil((src.length + 1 - lineView.length) / 65536));
    views(e.memory);
  }
  lineView.set(src, 0);
  lineView[src.length] = 0;
  return lineView;
}

/**
 * Scans the string body from `i` (just past its opening quote) in the bytes last loaded, up to `end`: the
 * closing quote's offset, SCAN_INVALID, or SCAN_MORE. `units()` is then the string's UTF-16 length (so
 * far, for SCAN_MORE).
 */
export function scan(i: number, end: number): number {
  const r = ex!.scan(i + BASE, end + BASE);
  return r >= 0 ? r - BASE : r;
}

export const units = (): number => words[UNITS_AT >> 2]!;
/** The escapes (`\n`, `\uXXXX`… one each) and 4-byte UTF-8 sequences of what `units` counts. */
export const escapes = (): number => words[ESCAPES_AT >> 2]!;
export const fours = (): number => words[FOURS_AT >> 2]!;
/** How many of the escapes are `\uXXXX`. */
export const uEscapes = (): number => words[US_AT >> 2]!;
export const stoppedAt = (): number => words[STOP_AT >> 2]! - BASE;
