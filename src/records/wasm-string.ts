/**
 * A JSON string body scanner in WebAssembly SIMD: from just after an opening quote it finds the closing
 * quote, checks what JSON.parse checks inside a string (no raw control character, only the escapes
 * `\" \\ \/ \b \f \n \r \t \uXXXX`) and counts the UTF-16 units the decoded string will have, 16 bytes
 * at a step, without decoding. The caller has checked the bytes are valid UTF-8 (buffer.isUtf8): then a
 * 4-byte sequence is 2 units, any other sequence 1, and every escape 1 (a `\uD83D\uDE00` pair is two
 * escapes, two units). A JavaScript loop does the same at a tenth of the speed; the module is built
 * here from its instructions, so there is no binary blob to trust.
 */

/** What `scan` returns besides a quote position. */
export const SCAN_INVALID = -1;
/** The bytes ended before the string did (or inside an escape): go on from `stoppedAt()` with more. */
export const SCAN_MORE = -2;

const I32 = 0x7f,
  V128 = 0x7b,
  VOID = 0x40;
const op = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  ret: 0x0f,
  call: 0x10,
  get: 0x20,
  set: 0x21,
  gget: 0x23,
  gset: 0x24,
  load8: 0x2d,
  const: 0x41,
  eqz: 0x45,
  eq: 0x46,
  ne: 0x47,
  ltU: 0x49,
  gtU: 0x4b,
  leU: 0x4d,
  geU: 0x4f,
  ctz: 0x68,
  popcnt: 0x69,
  add: 0x6a,
  sub: 0x6b,
  and: 0x71,
  or: 0x72,
  shl: 0x74,
};
/** SIMD instructions: the 0xfd prefix and their number (all below 128: one LEB byte). */
const simd = { load: 0x00, splat8: 0x0f, eq8: 0x23, ltU8: 0x26, geU8: 0x2c, and: 0x4e, or: 0x50, bitmask8: 0x64 };

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) return [...out, b];
    out.push(b | 0x80);
  }
}
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}
const vec = (items: number[][]) => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];
const name = (s: string) => [...uleb(s.length), ...Buffer.from(s, "latin1")];
const c = (n: number) => [op.const, ...sleb(n)];
const S = (x: number, ...imm: number[]) => [0xfd, ...uleb(x), ...imm];

// Locals of `scan`: parameters first.
const I = 0,
  END = 1,
  U = 2,
  SP = 3,
  CM = 4,
  LM = 5,
  P = 6,
  E = 7,
  V = 8;
const G_UNITS = 0,
  G_AT = 1;
const HEX = 0;
const get = (l: number) => [op.get, l];
const set = (l: number) => [op.set, l];
/** local += the instructions' i32 result */
const addTo = (l: number, ...code: number[][]) => [...get(l), ...code.flat(), op.add, ...set(l)];
const splatCmp = (byte: number, cmp: number) => [...get(V), ...c(byte), ...S(simd.splat8), ...S(cmp)];

/** hex(c): 1 when c is an ASCII hex digit. */
const hexBody = [
  ...get(0),
  ...c(0x30),
  op.sub,
  ...c(10),
  op.ltU,
  ...get(0),
  ...c(0x20),
  op.or,
  ...c(0x61),
  op.sub,
  ...c(6),
  op.ltU,
  op.or,
  op.end,
];

const hexAt = (k: number) => [...get(I), op.load8, 0, k, op.call, HEX];
const escapeOk = [0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74].flatMap((x, k) => [...get(E), ...c(x), op.eq, ...(k ? [op.or] : [])]);

// Labels, counted from inside the loop body: 0 the loop, 1 "more", 2 "invalid"; each `if` adds one.
// prettier-ignore
const scanBody = [
  op.block, VOID, // invalid
  op.block, VOID, // more
  op.loop, VOID,
  // 16 bytes at a time while they hold no quote, backslash or control character.
  ...get(I), ...c(16), op.add, ...get(END), op.leU,
  op.if, VOID,
  ...get(I), ...S(simd.load, 0, 0), ...set(V),
  ...get(V), ...c(0xc0), ...S(simd.splat8), ...S(simd.and), ...c(0x80), ...S(simd.splat8), ...S(simd.eq8), ...S(simd.bitmask8), ...set(CM),
  ...splatCmp(0xf0, simd.geU8), ...S(simd.bitmask8), ...set(LM),
  ...splatCmp(0x22, simd.eq8), ...splatCmp(0x5c, simd.eq8), ...S(simd.or), ...splatCmp(0x20, simd.ltU8), ...S(simd.or), ...S(simd.bitmask8), ...set(SP),
  ...get(SP), op.eqz,
  op.if, VOID,
  ...addTo(U, c(16), get(CM), [op.popcnt, op.sub], get(LM), [op.popcnt, op.add]),
  ...addTo(I, c(16)),
  op.br, 2,
  op.end,
  // Count the plain bytes before the first special one, then handle it below.
  ...get(SP), op.ctz, ...set(P),
  ...c(1), ...get(P), op.shl, ...c(1), op.sub, ...set(SP),
  ...addTo(U, get(P), get(CM), get(SP), [op.and, op.popcnt, op.sub], get(LM), get(SP), [op.and, op.popcnt, op.add]),
  ...addTo(I, get(P)),
  op.end,
  // One byte.
  ...get(I), ...get(END), op.geU, op.brIf, 1,
  ...get(I), op.load8, 0, 0, ...set(P),
  ...get(P), ...c(0x22), op.eq,
  op.if, VOID,
  ...get(U), op.gset, G_UNITS, ...get(I), op.ret,
  op.end,
  ...get(P), ...c(0x5c), op.eq,
  op.if, VOID,
  ...get(I), ...c(1), op.add, ...get(END), op.geU, op.brIf, 2,
  ...get(I), op.load8, 0, 1, ...set(E),
  ...get(E), ...c(0x75), op.eq,
  op.if, VOID,
  ...get(I), ...c(6), op.add, ...get(END), op.gtU, op.brIf, 3,
  ...hexAt(2), ...hexAt(3), op.and, ...hexAt(4), op.and, ...hexAt(5), op.and, op.eqz, op.brIf, 4,
  ...addTo(U, c(1)),
  ...addTo(I, c(6)),
  op.br, 2,
  op.end,
  ...escapeOk, op.eqz, op.brIf, 3,
  ...addTo(U, c(1)),
  ...addTo(I, c(2)),
  op.br, 1,
  op.end,
  ...get(P), ...c(0x20), op.ltU, op.brIf, 2,
  // A lead or ASCII byte is a unit, a 4-byte lead one more; continuation bytes none.
  ...addTo(U, get(P), c(0xc0), [op.and], c(0x80), [op.ne], get(P), c(0xf0), [op.geU, op.add]),
  ...addTo(I, c(1)),
  op.br, 0,
  op.end, // loop
  op.end, // more
  ...get(U), op.gset, G_UNITS, ...get(I), op.gset, G_AT, ...c(SCAN_MORE), op.ret,
  op.end, // invalid
  ...c(SCAN_INVALID),
  op.end,
];

function moduleBytes(): Uint8Array<ArrayBuffer> {
  const types = section(
    1,
    vec([
      [0x60, ...vec([[I32]]), ...vec([[I32]])],
      [0x60, ...vec([[I32], [I32]]), ...vec([[I32]])],
    ]),
  );
  const funcs = section(3, vec([[0], [1]]));
  const memory = section(5, vec([[0x00, 1]]));
  const globals = section(
    6,
    vec([
      [I32, 1, ...c(0), op.end],
      [I32, 1, ...c(0), op.end],
    ]),
  );
  const exports = section(
    7,
    vec([
      [...name("memory"), 0x02, 0],
      [...name("scan"), 0x00, 1],
      [...name("units"), 0x03, G_UNITS],
      [...name("at"), 0x03, G_AT],
    ]),
  );
  const body = (locals: number[][], code: number[]) => {
    const b = [...vec(locals), ...code];
    return [...uleb(b.length), ...b];
  };
  const code = section(
    10,
    vec([
      body([], hexBody),
      body(
        [
          [6, I32],
          [1, V128],
        ],
        scanBody,
      ),
    ]),
  );
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, ...types, ...funcs, ...memory, ...globals, ...exports, ...code]);
}

interface Exports {
  memory: WebAssembly.Memory;
  scan(i: number, end: number): number;
  units: WebAssembly.Global;
  at: WebAssembly.Global;
}

let ex: Exports | null | undefined;
let bytes = new Uint8Array(0);

/** The scanner, or null where WebAssembly SIMD is not available (the JavaScript path then does the work). */
function load(): Exports | null {
  if (ex !== undefined) return ex;
  try {
    ex = new WebAssembly.Instance(new WebAssembly.Module(moduleBytes())).exports as unknown as Exports;
    bytes = new Uint8Array(ex.memory.buffer);
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
  if (bytes.length < src.length + 1) {
    e.memory.grow(Math.ceil((src.length + 1 - bytes.length) / 65536));
    bytes = new Uint8Array(e.memory.buffer);
  }
  bytes.set(src, 0);
  bytes[src.length] = 0;
  return bytes;
}

/**
 * Scans the string body from `i` (just past its opening quote) in the bytes last loaded, up to `end`: the
 * closing quote's offset, SCAN_INVALID, or SCAN_MORE. `units()` is then the string's UTF-16 length (so
 * far, for SCAN_MORE).
 */
export function scan(i: number, end: number): number {
  return ex!.scan(i, end);
}

export const units = (): number => ex!.units.value as number;
export const stoppedAt = (): number => ex!.at.value as number;
