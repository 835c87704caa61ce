import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { jsonObjects } from "./json-values.js";
import { MAX_DEPTH, parseWhole, type ParsedLine } from "../../src/records/json.js";
import { lazyOf } from "../../src/records/lazy-strings.js";
import { StreamScanner } from "../../src/records/stream-scan.js";
import { filesUnder, ROOT } from "../helpers.js";

// The streaming scan of over-long lines (records/stream-scan.ts) against the full parse (parseWhole:
// decode, JSON.parse), fed in chunks of every size, split at every byte, on samples and hostile lines.
// Counted strings read back from the file, so the values compare whole.

const dir = mkdtempSync(join(tmpdir(), "ccf-stream-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
let fileNo = 0;

function scanChunks(file: string, buf: Buffer, cuts: number[], keepMax: number): ParsedLine {
  const s = new StreamScanner({ file, offset: 0, maxDepth: MAX_DEPTH, keepMax });
  let at = 0;
  for (const c of [...cuts, buf.length]) {
    // Copies, as a reader would hand fresh buffers: a view into one buffer could hide an offset bug.
    if (c > at) s.push(Buffer.from(buf.subarray(at, c)));
    at = Math.max(at, c);
  }
  return s.end(false).parsed;
}

const bySize = (n: number, size: number) => Array.from({ length: Math.ceil(n / size) - 1 }, (_, k) => (k + 1) * size);

/** Every counted string's length against its decoded length. */
function lengthsHold(v: unknown, where: string): number {
  if (v === null || typeof v !== "object") return 0;
  let lazies = 0;
  for (const k of Object.keys(v)) {
    const lazy = lazyOf(v, Array.isArray(v) ? Number(k) : k);
    const x: unknown = (v as Record<string, unknown>)[k];
    if (lazy) {
      lazies++;
      assert.equal(lazy.units, (x as string).length, `${where}: counted length of .${k}`);
    }
    lazies += lengthsHold(x, where);
  }
  return lazies;
}

/** Same outcome as the full parse: the same value, or malformed both ways (same reason where the reason is no parser message). */
function agrees(got: ParsedLine, whole: ParsedLine, where: string): number {
  if (whole.ok === true) {
    assert.equal(got.ok, true, `${where}: ${got.ok === false ? got.reason : "blank"}`);
    if (got.ok !== true) return 0;
    const lazies = lengthsHold(got.value, where);
    assert.deepStrictEqual(got.value, whole.value, where);
    // What was wrong with the line (NULs skipped, bytes that are not UTF-8) is said the same way.
    assert.deepStrictEqual(got.damage, whole.damage, `${where}: damage`);
    return lazies;
  }
  if (whole.ok === "blank") assert.deepStrictEqual(got, whole, where);
  else {
    assert.equal(got.ok, false, where);
    // A parser's message differs between the two; what comes before it (NULs skipped first) does not.
    const parserSays =
      /^((?:\d+ NUL bytes? before byte \d+ \(crash remnant\), then )?)(invalid JSON|truncated record|two JSON|trailing garbage)/;
    const m = parserSays.exec(whole.reason);
    if (got.ok === false && !m) assert.equal(got.reason, whole.reason, where);
    if (got.ok === false && m) assert.ok(got.reason.startsWith(m[1]!), `${where}: ${got.reason} / ${whole.reason}`);
    if (got.ok === false) assert.equal(got.excerpt, whole.excerpt, `${where}: excerpt`);
  }
  return 0;
}

function sameAsWhole(buf: Buffer, where: string, sizes = [1, 3, 7, 64, 300, 4096, buf.length], keepMax = 16): number {
  const file = join(dir, `l${fileNo++}.json`);
  writeFileSync(file, buf);
  const whole = parseWhole({ line: 1, buf, bytes: buf.length, tooLong: false, unterminated: false });
  let lazies = 0;
  for (const size of sizes)
    lazies += agrees(scanChunks(file, buf, bySize(buf.length, Math.max(1, size)), keepMax), whole, `${where} /${size}`);
  return lazies;
}

test("every line of every sample transcript: the same value scanned as parsed", () => {
  let lines = 0;
  let lazies = 0;
  for (const f of filesUnder(join(ROOT, "samples"))) {
    const text = readFileSync(f);
    for (let s = 0, nl, i = 1; s < text.length; s = nl + 1, i++) {
      nl = text.indexOf(10, s);
      if (nl < 0) nl = text.length;
      const l = text.subarray(s, nl);
      if (l.length === 0) continue;
      lazies += sameAsWhole(l, `${f}:${i}`, [5, 1000, l.length], 64);
      lines++;
    }
  }
  assert.ok(lines > 200 && lazies > 50, `${lines} lines, ${lazies} counted strings`);
});

const LONG = "x".repeat(700);
const line = (s: string) => Buffer.from(s, "utf8");
const withLong = (body: string) => `{"type":"user","pad":"${LONG}",${body}}`;

const HOSTILE: Array<[string, Buffer]> = [
  [
    "invalid UTF-8 in a string",
    Buffer.concat([line(`{"type":"user","t":"${LONG}`), Buffer.from([0xff, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xe2, 0x82]), line('"}')]),
  ],
  ["a cut sequence before the closing quote", Buffer.concat([line('{"t":"ab'), Buffer.from([0xf0, 0x9f, 0x98]), line('"}')])],
  ["invalid UTF-8 outside strings", Buffer.concat([line('{"t":1'), Buffer.from([0xc3, 0xa9]), line("}")])],
  ["escapes", line(withLong(`"e":"${'\\\\ \\" \\\\\\" \\/ \\b\\f\\n\\r\\t \\u0041 \\ud83d\\ude00 \\ud800 \\udfff x'.repeat(30)}"`))],
  ["backslash runs before quotes", line(withLong(`"e":"${"\\\\".repeat(301)}","f":"${"a\\\\\\\\".repeat(200)}"`))],
  ["raw tab in a string", line(withLong(`"toolUseResult":{"stdout":"${"y".repeat(500)}\t"}`))],
  ["raw CR in a string", line(withLong(`"e":"${"y".repeat(500)}\ry"`))],
  ["invalid escape", line(withLong(`"e":"${"y".repeat(500)}\\x"`))],
  ["short bad \\u", line(withLong(`"e":"${"y".repeat(500)}\\u12g4"`))],
  ["\\u0000 inside a string", line(withLong(`"e":"${"y".repeat(500)}\\u0000"`))],
  ["a raw NUL", line(withLong(`"e":"y\u0000"`))],
  ["NUL bytes only", Buffer.alloc(700)],
  ["NUL bytes and whitespace only", Buffer.concat([Buffer.alloc(300), line(" \t "), Buffer.alloc(300), line("  ")])],
  ["NUL bytes before a record (a crash remnant the next write landed after)", Buffer.concat([Buffer.alloc(700), line(withLong('"a":1'))])],
  [
    "NUL bytes and whitespace before a record",
    Buffer.concat([line(" "), Buffer.alloc(9), line("\t "), Buffer.alloc(3), line(withLong('"a":1'))]),
  ],
  ["NUL bytes before a half-written record", Buffer.concat([Buffer.alloc(40), line(`{"type":"user","t":"${LONG}`)])],
  ["NUL bytes before an array", Buffer.concat([Buffer.alloc(40), line(`["${LONG}"]`)])],
  ["NUL bytes after a record (the zero-filled tail a crash leaves)", Buffer.concat([line(withLong('"a":1')), Buffer.alloc(700)])],
  ["NUL bytes and whitespace after a record", Buffer.concat([line(withLong('"a":1')), line(" "), Buffer.alloc(9), line("\r")])],
  ["NUL bytes after a record, then more", Buffer.concat([line(withLong('"a":1')), Buffer.alloc(9), line("{}")])],
  ["NUL bytes before and after a record", Buffer.concat([Buffer.alloc(40), line(withLong('"a":1')), Buffer.alloc(5)])],
  ["NUL bytes before a record with a raw NUL in a string", Buffer.concat([Buffer.alloc(40), line(withLong(`"e":"y\u0000"`))])],
  [
    "NUL bytes before a record that is not UTF-8",
    Buffer.concat([Buffer.alloc(40), line(`{"type":"user","t":"${LONG}`), Buffer.from([0xed, 0xa0, 0x80]), line('"}')]),
  ],
  [
    "invalid UTF-8 in a key",
    Buffer.concat([line(`{"type":"user","pad":"${LONG}","k`), Buffer.from([0xc3, 0xff, 0xe6, 0x97]), line('":1}')]),
  ],
  [
    "invalid UTF-8 in two strings",
    Buffer.concat([
      line(`{"type":"user","pad":"${LONG}","a":"`),
      Buffer.from([0xf0, 0x9f, 0x98]),
      line(`","b":"${LONG}`),
      Buffer.from([0x80, 0xbf]),
      line('"}'),
    ]),
  ],
  ["blank", line(" \t \r ".repeat(100))],
  ["duplicate keys, long then short", line(withLong(`"d":"${"y".repeat(500)}","d":"short"`))],
  ["duplicate keys, short then long", line(withLong(`"d":"short","d":"${"y".repeat(500)}"`))],
  ["duplicate parents", line(withLong(`"o":{"t":"${"y".repeat(500)}"},"o":{"t":"${"z".repeat(400)}"}`))],
  ["truncated inside a string", line(`{"type":"user","t":"${LONG}`)],
  ["truncated after a key", line(withLong(`"a":`))],
  ["two objects glued", line(`${withLong('"a":1')}{"b":2}`)],
  ["trailing garbage", line(`${withLong('"a":1')} x`)],
  ["nesting past 200", line(withLong(`"n":${"[".repeat(250)}"${"y".repeat(300)}"${"]".repeat(250)}`))],
  [
    "nesting past 200, bad UTF-8 and escapes inside",
    Buffer.concat([
      line(withLong(`"n":${"[".repeat(250)}"\\\"]`).slice(0, -1)),
      Buffer.from([0xff]),
      line(`${"y".repeat(30)}"${"]".repeat(250)},"m":${'{"k":'.repeat(220)}1${"}".repeat(220)}}`),
    ]),
  ],
  ["nesting past 200, never closing", line(withLong(`"n":${"[".repeat(250)}"y"${"]".repeat(100)}`))],
  ["nesting past 200, not JSON inside", line(withLong(`"n":${"[".repeat(250)}1 2${"]".repeat(250)}`))],
  ["nesting at 200", line(withLong(`"n":${"[".repeat(198)}"${"y".repeat(300)}"${"]".repeat(198)}`))],
  ["an array nested past 200", line(`${"[".repeat(250)}"${LONG}"${"]".repeat(250)}`)],
  ["4-byte characters", line(withLong(`"e":"${"a😀bc日本é→".repeat(100)}"`))],
  ["a top-level array", line(`["${LONG}"]`)],
  ["a top-level string", line(`"${LONG}"`)],
  ["a top-level number", line(`  12e3  `)],
  ["numbers", line(withLong(`"n":[-0,1e5,1.5E-3,0,-12.25,1e+2,1e400,123456789012345678901234567890]`))],
  ["bad numbers", line(withLong(`"n":01`))],
  ["bad fraction", line(withLong(`"n":1.`))],
  ["bad exponent", line(withLong(`"n":1e+`))],
  ["literals", line(withLong(`"l":[true,false,null]`))],
  ["bad literal", line(withLong(`"l":nul`))],
  ["a comma too many", line(withLong(`"a":[1,],"b":2`))],
  ["whitespace everywhere", line(` \t{ "type" : "user" ,\r "pad" : "${LONG}" , "a" : [ 1 , { } , [ ] ] } \t`)],
  ["__proto__ holding a long string", line(withLong(`"__proto__":"${"y".repeat(500)}"`))],
  ["__proto__ holding an object", line(withLong(`"__proto__":{"a":"${"y".repeat(500)}"},"b":1`))],
  ["long strings in arrays", line(withLong(`"a":["${"y".repeat(400)}",1,"${"z".repeat(400)}"]`))],
  ["a long key", line(withLong(`"${"k".repeat(400)}":"${"y".repeat(400)}"`))],
  ["an escaped long key", line(withLong(`"k\\u00e9\\n${"k".repeat(400)}":{"v":"${"y".repeat(400)}"}`))],
  [
    "a tool result",
    line(
      withLong(`"message":{"content":[{"type":"tool_result","content":[{"type":"text","text":"${"é".repeat(600)}"},{"type":"image"}]}]}`),
    ),
  ],
];

test("hostile lines, in chunks of 1 to 4096 bytes: the same outcome as the full parse", () => {
  let lazies = 0;
  for (const [name, buf] of HOSTILE) lazies += sameAsWhole(buf, name);
  assert.ok(lazies > 100, `only ${lazies} counted strings: the test would not see a counting fault`);
});

test("a reader that reuses one buffer for every chunk: the same outcome (nothing kept points into a chunk)", () => {
  for (const [name, buf] of HOSTILE) {
    const file = join(dir, `r${fileNo++}.json`);
    writeFileSync(file, buf);
    const whole = parseWhole({ line: 1, buf, bytes: buf.length, tooLong: false, unterminated: false });
    for (const size of [1, 5, 300]) {
      const scratch = Buffer.alloc(size);
      const s = new StreamScanner({ file, offset: 0, maxDepth: MAX_DEPTH, keepMax: 64 });
      for (let i = 0; i < buf.length; i += size) {
        const n = buf.copy(scratch, 0, i, i + size);
        s.push(scratch.subarray(0, n));
        scratch.fill(0x41);
      }
      agrees(s.end(false).parsed, whole, `${name} reused /${size}`);
    }
  }
});

test("split at every byte (and at every pair of bytes near escapes): escapes and UTF-8 sequences cut anywhere", () => {
  const bad = Buffer.concat([
    line('{"a":"é😀\\u00e9\\ud83d\\ude00\\"\\\\'),
    Buffer.from([0xe2, 0x82, 0xff, 0xf0, 0x9f]),
    line('x","b":[1.5,true,null,"日本"]}'),
  ]);
  for (const buf of [bad, line(`{"a":"${"é😀\\n\\u1234\\\\".repeat(8)}","n":-12.5e3,"t":true}`)]) {
    const file = join(dir, `s${fileNo++}.json`);
    writeFileSync(file, buf);
    const whole = parseWhole({ line: 1, buf, bytes: buf.length, tooLong: false, unterminated: false });
    for (let i = 0; i <= buf.length; i++) {
      for (const keep of [4, 4096]) agrees(scanChunks(file, buf, [i], keep), whole, `cut at ${i}`);
      for (let j = i + 1; j <= Math.min(buf.length, i + 7); j++) agrees(scanChunks(file, buf, [i, j], 4), whole, `cuts at ${i},${j}`);
    }
  }
});

test("UTF-8 decoding: every short byte mix counts as Buffer#toString decodes it (WHATWG replacement)", () => {
  const byte = fc.constantFrom(
    0x41,
    0x7f,
    0x80,
    0x8f,
    0x90,
    0x9f,
    0xa0,
    0xbf,
    0xc0,
    0xc1,
    0xc2,
    0xdf,
    0xe0,
    0xe1,
    0xed,
    0xee,
    0xef,
    0xf0,
    0xf1,
    0xf4,
    0xf5,
    0xff,
  );
  fc.assert(
    fc.property(fc.array(byte, { maxLength: 12 }), fc.nat(20), (bytes, cut) => {
      const buf = Buffer.concat([line('{"s":"'), Buffer.from(bytes), line('","t":"'), Buffer.from(bytes), line('"}')]);
      const file = join(dir, `u${fileNo++}.json`);
      writeFileSync(file, buf);
      const whole = parseWhole({ line: 1, buf, bytes: buf.length, tooLong: false, unterminated: false });
      agrees(scanChunks(file, buf, [Math.min(cut, buf.length)], 2), whole, JSON.stringify(bytes));
    }),
    { numRuns: 2000 },
  );
});

test("random records, counted and kept strings mixed: the same value scanned as parsed", () => {
  const piece = fc.constantFrom(
    "a",
    " ",
    "é",
    "→",
    "日",
    "😀",
    '\\"',
    "\\\\",
    "\\n",
    "\\u00e9",
    "\\ud83d\\ude00",
    "\\ud800",
    "\t",
    "\\x",
    "\\",
  );
  const body = fc.array(piece, { maxLength: 80 }).map((a) => a.join(""));
  const text = fc.oneof(body, fc.string({ unit: "binary", maxLength: 300 }));
  const objects = jsonObjects(text);
  fc.assert(
    fc.property(objects, fc.nat(64), (o, size) => {
      const s = JSON.stringify({ type: "user", ...o });
      sameAsWhole(line(s.replace(/\\\\x|"\\\\"/g, (m) => m)), s.slice(0, 60), [size + 1, 4096], 24);
    }),
    { numRuns: 300 },
  );
});

test("stdin: counted strings read back from a temporary copy, the same as from a file", () => {
  const buf = line(withLong(`"e":"${"é😀\\n".repeat(300)}","a":1`));
  const whole = parseWhole({ line: 1, buf, bytes: buf.length, tooLong: false, unterminated: false });
  for (const size of [1, 300, buf.length]) {
    const s = new StreamScanner({ file: "-", offset: 1234, maxDepth: MAX_DEPTH, keepMax: 64 });
    for (let i = 0; i < buf.length; i += size) s.push(Buffer.from(buf.subarray(i, i + size)));
    const out = s.end(false);
    assert.equal(out.textKept, true);
    assert.ok(agrees(out.parsed, whole, `stdin /${size}`) >= 2);
  }
});

test('a string too long to decode reads as "" with its length counted, and the line says its text was not kept', () => {
  for (const file of [join(dir, "never-read.json"), "-"]) {
    const s = new StreamScanner({ file, offset: 0, maxDepth: MAX_DEPTH, keepMax: 64, maxString: 500 });
    s.push(line(withLong('"a":"short"')));
    const out = s.end(false);
    assert.equal(out.textKept, false);
    assert.equal(out.parsed.ok, true);
    if (out.parsed.ok !== true) return;
    assert.equal(lazyOf(out.parsed.value, "pad")!.units, 700);
    assert.equal(out.parsed.value.pad, "");
    assert.equal(out.parsed.value.a, "short");
  }
});

test("a number past 1 Mi digits is reported, not held", () => {
  const s = new StreamScanner({ file: "x", offset: 0, maxDepth: MAX_DEPTH });
  s.push(line(`{"n":1${"0".repeat(1 << 20)}}`));
  const out = s.end(false).parsed;
  assert.equal(out.ok, false);
  if (out.ok === false) assert.match(out.reason, /a number of more than 1048576 characters/);
});

test("a half-written last line is reported as one", () => {
  const s = new StreamScanner({ file: "x", offset: 0, maxDepth: MAX_DEPTH });
  s.push(line(`{"type":"user","t":"${LONG}`));
  const out = s.end(true).parsed;
  assert.equal(out.ok, false);
  if (out.ok === false) assert.match(out.reason, /^half-written last line/);
});

test("a streamed line nested too deep stops at the limit: no frame per level (a 150 MB `[[[[` ran the heap out)", () => {
  for (const [text, why] of [
    ["[".repeat(3_000_000), "not a JSON object (an array nested deeper than 200 levels)"],
    [`{"a":`.repeat(600_000), "nested deeper than 200 levels"],
    [`{"a":${"[".repeat(3_000_000)}`, "nested deeper than 200 levels"],
  ] as const) {
    const s = new StreamScanner({ file: "x", offset: 0, maxDepth: MAX_DEPTH });
    const buf = Buffer.from(text);
    for (let at = 0; at < buf.length; at += 1 << 16) s.push(buf.subarray(at, at + (1 << 16)));
    const r = s.end(false).parsed;
    assert.equal(r.ok, false);
    assert.equal((r as { reason: string }).reason, why);
    assert.ok((s as unknown as { stack: unknown[] }).stack.length <= MAX_DEPTH);
  }
  // An object record whose value nests too deep and closes is kept, that value null (as parseWhole cuts it).
  const s = new StreamScanner({ file: "x", offset: 0, maxDepth: MAX_DEPTH });
  const buf = Buffer.from(`{"a":${"[".repeat(3_000_000)}${"]".repeat(3_000_000)},"b":1}`);
  for (let at = 0; at < buf.length; at += 1 << 16) s.push(buf.subarray(at, at + (1 << 16)));
  const r = s.end(false).parsed;
  assert.equal(r.ok, true);
  assert.equal(r.ok === true && r.value.b, 1);
  assert.deepStrictEqual(r.ok === true && r.damage, [
    { reason: "a value nested deeper than 200 levels (5999602 bytes from byte 205, not checked as JSON) read as null", bytes: 5_999_602 },
  ]);
  assert.ok((s as unknown as { stack: unknown[] }).stack.length <= MAX_DEPTH);
});

test("a streamed line: NULs before the record are skipped and bad UTF-8 counted, both said as damage", () => {
  const scan = (buf: Buffer, size: number) => {
    const file = join(dir, `d${fileNo++}.json`);
    writeFileSync(file, buf);
    return scanChunks(file, buf, bySize(buf.length, size), 16);
  };
  const rec = Buffer.concat([line(`{"type":"assistant","t":"${LONG}`), Buffer.from([0xed, 0xa0, 0x80]), line('"}')]);
  const bad = 26 + LONG.length; // 1-based, after the 25 bytes of `{"type":"assistant","t":"`
  for (const size of [1, 7, 4096]) {
    const p = scan(Buffer.concat([Buffer.alloc(40), rec]), size);
    assert.equal(p.ok, true, `/${size}: ${p.ok === false ? p.reason : ""}`);
    assert.deepStrictEqual(p.ok === true && p.damage, [
      { reason: "40 NUL bytes before byte 41 (crash remnant), skipped", bytes: 40 },
      { reason: `3 bytes of invalid UTF-8 from byte ${40 + bad}, read as U+FFFD`, bytes: 3 },
    ]);
    const tail = scan(Buffer.concat([rec, Buffer.alloc(9)]), size);
    assert.deepStrictEqual(tail.ok === true && tail.damage, [
      { reason: `9 trailing NUL bytes from byte ${rec.length + 1} (crash remnant), skipped`, bytes: 9 },
      { reason: `3 bytes of invalid UTF-8 from byte ${bad}, read as U+FFFD`, bytes: 3 },
    ]);
    const only = scan(Buffer.alloc(700), size);
    assert.deepStrictEqual(only.ok === false && only.reason, "NUL bytes only (crash remnant)");
    const clean = scan(line(withLong('"a":1')), size);
    assert.equal(clean.ok === true && clean.damage, undefined);
  }
});
