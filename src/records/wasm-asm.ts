/**
 * Just enough of a WebAssembly assembler for records/wasm-string.ts: instructions as byte arrays, blocks
 * and branches by name (the depth of a branch is counted here, not by hand), and the module's sections.
 * The scanner is built from these instructions at start-up, so there is no binary blob to trust.
 */

/** Opens a named block, loop or if; closed by `end`. */
interface Open {
  open: 0x02 | 0x03 | 0x04;
  label: string;
}
interface Close {
  close: true;
}
interface Branch {
  br: 0x0c | 0x0d;
  label: string;
}
export type Item = number | Open | Close | Branch | Item[];
export type Code = Item[];

export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

function sleb32(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) return [...out, b];
    out.push(b | 0x80);
  }
}

function sleb(n: bigint): number[] {
  const out: number[] = [];
  for (;;) {
    const b = Number(n & 0x7fn);
    n >>= 7n;
    if ((n === 0n && (b & 0x40) === 0) || (n === -1n && (b & 0x40) !== 0)) return [...out, b];
    out.push(b | 0x80);
  }
}

export const I32 = 0x7f,
  I64 = 0x7e,
  V128 = 0x7b;

export const block = (label: string): Open => ({ open: 0x02, label });
export const loop = (label: string): Open => ({ open: 0x03, label });
export const if_ = (label: string): Open => ({ open: 0x04, label });
export const end: Close = { close: true };
export const br = (label: string): Branch => ({ br: 0x0c, label });
export const brIf = (label: string): Branch => ({ br: 0x0d, label });

export const get = (l: number): Code => [0x20, l];
export const set = (l: number): Code => [0x21, l];
/** i32.store of the value on the stack at the address below it plus `offset`. */
export const store32 = (offset: number): Code => [0x36, 2, ...uleb(offset)];
export const call = (f: number): Code => [0x10, f];
export const ret = 0x0f;
export const i32 = (n: number): number[] => [0x41, ...sleb32(n)];
export const i64 = (n: bigint): number[] => [0x42, ...sleb(BigInt.asIntN(64, n))];
/** i32.load8_u at the address on the stack plus `offset`. */
export const load8 = (offset: number): Code => [0x2d, 0, ...uleb(offset)];

/** i32 operators. */
export const op = {
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
  wrap: 0xa7,
};
/** i64 operators; `extendU` takes an i32. */
export const op64 = {
  eqz: 0x50,
  ne: 0x52,
  ctz: 0x7a,
  popcnt: 0x7b,
  add: 0x7c,
  sub: 0x7d,
  and: 0x83,
  or: 0x84,
  xor: 0x85,
  shl: 0x86,
  shrU: 0x88,
  extendU: 0xad,
};

const S = (x: number, ...imm: number[]): Code => [0xfd, ...uleb(x), ...imm];
/** SIMD operators (the 0xfd prefix and their number). */
export const v = {
  /** v128.load at the address on the stack plus `offset`, unaligned. */
  load: (offset: number) => S(0x00, 0, ...uleb(offset)),
  const: (bytes: number[]) => S(0x0c, ...bytes),
  splat8: S(0x0f),
  swizzle: S(0x0e),
  eq8: S(0x23),
  ltS8: S(0x25),
  ltU8: S(0x26),
  geU8: S(0x2c),
  and: S(0x4e),
  or: S(0x50),
  anyTrue: S(0x53),
  bitmask8: S(0x64),
  shrU8: S(0x6d),
  sub8: S(0x71),
};
/** A 16-lane byte vector of `b`. */
export const splat = (b: number): Code => v.const(new Array<number>(16).fill(b & 0xff));

/** The code's bytes, with every named branch turned into its depth. */
export function assemble(code: Code): number[] {
  const out: number[] = [];
  const labels: string[] = [];
  const walk = (c: Code): void => {
    for (const x of c) {
      if (typeof x === "number") out.push(x);
      else if (Array.isArray(x)) walk(x);
      else if ("open" in x) {
        out.push(x.open, 0x40);
        labels.push(x.label);
      } else if ("close" in x) {
        if (labels.pop() === undefined) throw new Error("wasm-asm: end without a block");
        out.push(0x0b);
      } else {
        const at = labels.lastIndexOf(x.label);
        if (at < 0) throw new Error(`wasm-asm: no enclosing block ${x.label}`);
        out.push(x.br, ...uleb(labels.length - 1 - at));
      }
    }
  };
  walk(code);
  if (labels.length) throw new Error(`wasm-asm: unclosed ${labels.join(", ")}`);
  return out;
}

const vec = (items: number[][]) => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];
const name = (s: string) => [...uleb(s.length), ...Buffer.from(s, "latin1")];

export interface Func {
  params: number[];
  results: number[];
  /** Local declarations past the parameters: [count, type]. */
  locals: Array<[number, number]>;
  code: Code;
  export?: string;
}

/** A module of one memory (exported as "memory") and the functions, each with a type of its own. */
export function moduleBytes(funcs: Func[]): Uint8Array<ArrayBuffer> {
  const types = section(1, vec(funcs.map((f) => [0x60, ...vec(f.params.map((t) => [t])), ...vec(f.results.map((t) => [t]))])));
  const fns = section(3, vec(funcs.map((_, k) => uleb(k))));
  const memory = section(5, vec([[0x00, 1]]));
  const exports = section(
    7,
    vec([[...name("memory"), 0x02, 0], ...funcs.flatMap((f, k) => (f.export ? [[...name(f.export), 0x00, ...uleb(k)]] : []))]),
  );
  const bodies = section(
    10,
    vec(
      funcs.map((f) => {
        const b = [...vec(f.locals.map(([n, t]) => [...uleb(n), t])), ...assemble(f.code), 0x0b];
        return [...uleb(b.length), ...b];
      }),
    ),
  );
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, ...types, ...fns, ...memory, ...exports, ...bodies]);
}
