import fc from "fast-check";

/**
 * Mutations as plain data, applied to a sample's bytes. Data rather than closures so that fast-check
 * can shrink them and print the failing case in a form a person can replay.
 */
export type Op =
  | { op: "cut"; at: number }
  | { op: "nul"; at: number; n: number }
  | { op: "dup"; line: number }
  | { op: "swap"; a: number; b: number }
  | { op: "glue"; line: number }
  | { op: "value"; line: number; path: number; raw: string }
  | { op: "field"; line: number; key: string; raw: string }
  | { op: "bytes"; at: number; hex: string }
  | { op: "deep"; line: number; path: number; depth: number }
  | { op: "long"; line: number; path: number; n: number; unit: string }
  | { op: "link"; line: number; to: number; self: boolean }
  | { op: "crlf" }
  | { op: "bom" };

/** Text that tries to become markup, a formula, a terminal escape or an invisible character. */
export const HOSTILE = [
  "a`<img src=x onerror=alert(1)>`b",
  "a`<img src=x onerror=alert(1)>``b",
  "<script>alert(1)</script>",
  "![x](http://evil.example/pixel.png)",
  "[click](javascript:alert(1))",
  '<a href="http://evil.example">x</a>',
  '=HYPERLINK("http://evil.example","click")',
  "+1+cmd|' /C calc'!A0",
  "-2+3",
  "@SUM(1,2)",
  "\tlead tab",
  "\rlead cr",
  "l\u200bab",
  "x\u202egnp.exe",
  "a\u2028b\u2029c",
  "\ufeffbom",
  "\u2060\u2061\u2062\u2063\u2064",
  "\u001b[31mred\u001b[0m",
  "\u0007bell\u0000nul",
  "| a | b |\n|---|---|",
  "# heading\n> quote\n- item",
  "*em* _em_ ~~del~~ **strong**",
  "http://evil.example/autolink",
  "&lt;img src=x onerror=alert(1)&gt;",
];

/** Raw JSON text put in place of a value: other types, and numbers no usage field should accept. */
export const RAW_VALUES = [
  "null",
  "true",
  "false",
  "0",
  "{}",
  "[]",
  '""',
  '"12"',
  '"NaN"',
  '"Infinity"',
  '"-1"',
  "1e308",
  "-1e308",
  "1e400",
  "1e20",
  "-1e20",
  "8.64e15",
  '"2026-13-45T99:99:99Z"',
  '"+275760-09-13T00:00:00.001Z"',
  "-500",
  "-0",
  "0.5",
  "4.5e15",
  String(2 ** 60),
  "123456789012345678901234567890",
  '"\\ud800"',
  '"x\\udfffy"',
  '"\\ud83d"',
  '{"a":[1,{"b":null}]}',
  '[1,"2",null]',
  '"__proto__"',
  '"constructor"',
  ...HOSTILE.map((s) => JSON.stringify(s)),
];

/** Keys whose values feed arithmetic or dates: token counts, times, durations, costs, ids. */
export const NUMERIC_KEYS = [
  "input_tokens",
  "output_tokens",
  "cache_creation_input_tokens",
  "cache_read_input_tokens",
  "ephemeral_5m_input_tokens",
  "ephemeral_1h_input_tokens",
];
const OTHER_KEYS = [
  "timestamp",
  "t",
  "ts",
  "time",
  "duration_ms",
  "durationMs",
  "total_cost_usd",
  "num_turns",
  "id",
  "method",
  "type",
  "protocolVersion",
  "maxResultSizeChars",
  // The parentUuid tree (rewinds), subagent chains from agent_progress and the .meta.json join key.
  "uuid",
  "parentUuid",
  "agentId",
  "toolUseId",
];
const BAD_BYTES = ["ff", "c3", "c0af", "eda080", "f4908080", "80", "e282", "fe"];
/** Long strings in several widths: ASCII, CJK (3 UTF-8 bytes) and an astral emoji (2 UTF-16 units). */
const LONG_UNITS = ["a", '\\"', "漢", "😀", "\\u0000"];

const idx = fc.nat({ max: 1 << 20 });

/** A token or cost field set to a value from RAW_VALUES. */
export const numericFieldOp: fc.Arbitrary<Op> = fc.record({
  op: fc.constant("field" as const),
  line: idx,
  key: fc.constantFrom(...NUMERIC_KEYS),
  raw: fc.constantFrom(...RAW_VALUES),
});

export const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant("cut" as const), at: idx }),
  fc.record({ op: fc.constant("nul" as const), at: idx, n: fc.integer({ min: 1, max: 5000 }) }),
  fc.record({ op: fc.constant("dup" as const), line: idx }),
  fc.record({ op: fc.constant("swap" as const), a: idx, b: idx }),
  fc.record({ op: fc.constant("glue" as const), line: idx }),
  fc.record({ op: fc.constant("value" as const), line: idx, path: idx, raw: fc.constantFrom(...RAW_VALUES) }),
  fc.record({
    op: fc.constant("field" as const),
    line: idx,
    key: fc.constantFrom(...NUMERIC_KEYS, ...OTHER_KEYS),
    raw: fc.constantFrom(...RAW_VALUES),
  }),
  fc.record({ op: fc.constant("bytes" as const), at: idx, hex: fc.constantFrom(...BAD_BYTES) }),
  fc.record({ op: fc.constant("deep" as const), line: idx, path: idx, depth: fc.integer({ min: 2, max: 20000 }) }),
  fc.record({
    op: fc.constant("long" as const),
    line: idx,
    path: idx,
    n: fc.integer({ min: 1, max: 1_000_000 }),
    unit: fc.constantFrom(...LONG_UNITS),
  }),
  // parentUuid cycles: a record its own parent, or a parent later in the file (A→B→A), in another chain.
  fc.record({ op: fc.constant("link" as const), line: idx, to: idx, self: fc.boolean() }),
  fc.constant({ op: "crlf" as const }),
  fc.constant({ op: "bom" as const }),
);

/** One to three mutations, applied in order. */
export const opsArb = fc.array(opArb, { minLength: 1, maxLength: 3 });

export function applyOps(src: Buffer, ops: readonly Op[]): Buffer {
  return ops.reduce((b, o) => applyOp(b, o), src);
}

function applyOp(b: Buffer, o: Op): Buffer {
  switch (o.op) {
    case "cut":
      return b.subarray(0, o.at % (b.length + 1));
    case "nul":
      return splice(b, o.at % (b.length + 1), Buffer.alloc(o.n));
    case "bytes":
      return splice(b, o.at % (b.length + 1), Buffer.from(o.hex, "hex"));
    case "crlf":
      return Buffer.from(b.toString("latin1").replace(/\r?\n/g, "\r\n"), "latin1");
    case "bom":
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]);
    default:
      return onLines(b, o);
  }
}

function splice(b: Buffer, at: number, ins: Buffer): Buffer {
  return Buffer.concat([b.subarray(0, at), ins, b.subarray(at)]);
}

/** Line operations work on bytes split at \n, so invalid UTF-8 from earlier steps survives them. */
function onLines(b: Buffer, o: Op): Buffer {
  const lines = splitLines(b);
  if (lines.length === 0) return b;
  const i = "line" in o ? o.line % lines.length : 0;
  switch (o.op) {
    case "dup":
      lines.splice(i, 0, lines[i]!);
      break;
    case "swap": {
      const a = o.a % lines.length,
        c = o.b % lines.length;
      [lines[a], lines[c]] = [lines[c]!, lines[a]!];
      break;
    }
    case "glue":
      if (i + 1 < lines.length) lines.splice(i, 2, Buffer.concat([lines[i]!, lines[i + 1]!]));
      break;
    case "value":
      lines[i] = replaceAt(lines[i]!, o.path, () => o.raw);
      break;
    case "deep":
      lines[i] = replaceAt(lines[i]!, o.path, () => "[".repeat(o.depth) + "]".repeat(o.depth));
      break;
    case "long":
      lines[i] = replaceAt(lines[i]!, o.path, () => `"${o.unit.repeat(Math.ceil(o.n / o.unit.length))}"`);
      break;
    case "link": {
      // The next line with a uuid gets as parentUuid its own uuid, or that of the next line with one from `to`.
      const has = (t: string) => t.includes('"uuid"');
      const j = findFrom(lines, i, has);
      const k = o.self ? j : findFrom(lines, o.to % lines.length, has);
      const uuid = k >= 0 ? (parse(lines[k]!) as { uuid?: unknown } | undefined)?.uuid : undefined;
      const v = j >= 0 ? parse(lines[j]!) : undefined;
      if (uuid !== undefined && v !== null && typeof v === "object" && !Array.isArray(v)) {
        (v as Record<string, unknown>).parentUuid = uuid;
        lines[j] = stringify(v, () => "") ?? lines[j]!;
      }
      break;
    }
    case "field": {
      // Aim at a line that has the key, so most cases hit arithmetic and dates rather than a random value.
      const j = findFrom(lines, i, (t) => t.includes(`"${o.key}"`));
      if (j >= 0) lines[j] = setKey(lines[j]!, o.key, o.raw);
      break;
    }
  }
  return joinLines(lines, b[b.length - 1] === 0x0a);
}

export function splitLines(b: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let k = b.indexOf(0x0a); k >= 0; k = b.indexOf(0x0a, start)) {
    out.push(b.subarray(start, k));
    start = k + 1;
  }
  if (start < b.length) out.push(b.subarray(start));
  return out;
}

function joinLines(lines: Buffer[], trailingNewline: boolean): Buffer {
  const parts: Buffer[] = [];
  lines.forEach((l, k) => parts.push(l, ...(k < lines.length - 1 || trailingNewline ? [Buffer.from("\n")] : [])));
  return Buffer.concat(parts);
}

function findFrom(lines: Buffer[], i: number, pred: (t: string) => boolean): number {
  for (let k = 0; k < lines.length; k++) {
    const j = (i + k) % lines.length;
    if (pred(lines[j]!.toString("latin1"))) return j;
  }
  return -1;
}

const MARK = "\u0000__ccf_fuzz_raw__\u0000";

/**
 * Replaces the value at the path-th position (in a walk of every value) of a line that parses, by raw
 * JSON text. Lines that do not parse are left alone: other ops already broke them.
 */
function replaceAt(line: Buffer, path: number, raw: () => string): Buffer {
  const v = parse(line);
  if (v === undefined) return line;
  const slots: Array<[Record<string, unknown> | unknown[], string | number]> = [];
  walk(v, slots);
  if (slots.length === 0) return Buffer.from(raw());
  const [holder, key] = slots[path % slots.length]!;
  (holder as Record<string | number, unknown>)[key] = MARK;
  return stringify(v, raw) ?? line;
}

function setKey(line: Buffer, key: string, raw: string): Buffer {
  const v = parse(line);
  if (v === undefined) return line;
  const slots: Array<[Record<string, unknown> | unknown[], string | number]> = [];
  walk(v, slots);
  const slot = slots.find(([, k]) => k === key);
  if (!slot) return line;
  (slot[0] as Record<string, unknown>)[key] = MARK;
  return stringify(v, () => raw) ?? line;
}

/** undefined when the value is too deep for JSON.stringify's recursion; the line is then left as it was. */
function stringify(v: unknown, raw: () => string): Buffer | undefined {
  try {
    return Buffer.from(JSON.stringify(v).replace(JSON.stringify(MARK), raw));
  } catch {
    return undefined;
  }
}

function parse(line: Buffer): unknown {
  try {
    return JSON.parse(line.toString("utf8"));
  } catch {
    return undefined;
  }
}

/** Slots down to a fixed depth: earlier "deep" ops may have nested a line far past what recursion survives. */
function walk(v: unknown, out: Array<[Record<string, unknown> | unknown[], string | number]>, depth = 0): void {
  if (depth > 64) return;
  if (Array.isArray(v)) v.forEach((x, k) => (out.push([v, k]), walk(x, out, depth + 1)));
  else if (v && typeof v === "object")
    for (const [k, x] of Object.entries(v)) (out.push([v as Record<string, unknown>, k]), walk(x, out, depth + 1));
}
