import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { jsonObjects } from "./json-values.js";
import { checkScan } from "./scan-check.js";
import { parseLine, parseWhole, type ParsedLine } from "../../src/records/json.js";
import { lazyOf } from "../../src/records/lazy-strings.js";
import { SKELETON_MIN_LINE } from "../../src/records/skeleton.js";
import { toRecord, type AnyRecord } from "../../src/records/transcript.js";
import { requestsAnalysisWith } from "../../src/analyses/requests.js";
import { filesUnder, ROOT } from "../helpers.js";

// The fast path (records/skeleton.ts: SIMD string scan, long strings undecoded) against the full parse
// (parseWhole: decode, JSON.parse), line by line and row by row, on every sample, on generated data and
// on hostile lines. Any difference is a bug in the fast path.

const raw = (buf: Buffer, line = 1) => ({ line, buf, bytes: buf.length, tooLong: false, unterminated: false });

/** Every undecoded string's counted length against its decoded length; then the whole value decoded. */
function lengthsHold(v: unknown, where: string): void {
  if (v === null || typeof v !== "object") return;
  for (const k of Object.keys(v)) {
    const lazy = lazyOf(v, Array.isArray(v) ? Number(k) : k);
    const x: unknown = (v as Record<string, unknown>)[k];
    if (lazy) assert.equal(lazy.units, (x as string).length, `${where}: counted length of .${k}`);
    lengthsHold(x, where);
  }
}

function sameLine(buf: Buffer, where: string): { fast: ParsedLine; whole: ParsedLine } {
  const fast = parseLine(raw(buf));
  const whole = parseWhole(raw(buf));
  if (fast.ok === true) lengthsHold(fast.value, where);
  assert.deepStrictEqual(fast, whole, where);
  return { fast, whole };
}

function requestRows(lines: Buffer[], parse: typeof parseLine) {
  const a = requestsAnalysisWith();
  const s = a.init();
  lines.forEach((buf, i) => {
    const p = parse(raw(buf, i + 1));
    const pos = { file: "f.jsonl", line: i + 1 };
    if (p.ok === true) a.step(s, toRecord(p.value, pos, "main") as AnyRecord);
    else if (p.ok === false) a.step(s, { kind: "malformed", pos, chain: "main", reason: p.reason, excerpt: p.excerpt });
  });
  const r = a.finish(s);
  return { rows: r.requests.toArray(), totals: r.totals };
}

function sameFile(text: Buffer, where: string): void {
  const lines: Buffer[] = [];
  for (let s = 0, nl; s < text.length; s = nl + 1) {
    nl = text.indexOf(10, s);
    if (nl < 0) nl = text.length;
    lines.push(text.subarray(s, nl));
  }
  lines.forEach((l, i) => {
    const { fast, whole } = sameLine(l, `${where}:${i + 1}`);
    if (fast.ok === true && whole.ok === true)
      assert.deepStrictEqual(
        toRecord(fast.value, { file: where, line: i + 1 }, "main"),
        toRecord(whole.value, { file: where, line: i + 1 }, "main"),
      );
  });
  assert.deepStrictEqual(requestRows(lines, parseLine), requestRows(lines, parseWhole), `${where}: request rows`);
}

test("every sample transcript: the same records and request rows on both paths", () => {
  const files = filesUnder(join(ROOT, "samples"));
  assert.ok(files.length > 20);
  for (const f of files) sameFile(readFileSync(f), f);
});

test("generated data (the bench generator, 3 MB): the same records and request rows on both paths", () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-skel-"));
  try {
    const out = join(dir, "t.jsonl");
    execFileSync(process.execPath, [join(ROOT, "bench", "shared", "gen.mjs"), "--out", out, "--size", "3MB", "--seed", "7"]);
    const text = readFileSync(out);
    const long = text
      .toString("latin1")
      .split("\n")
      .filter((l) => l.length >= SKELETON_MIN_LINE).length;
    assert.ok(long > 60, `only ${long} lines take the fast path`);
    sameFile(text, "gen");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const LONG = "x".repeat(SKELETON_MIN_LINE + 1000);
const line = (s: string) => Buffer.from(s, "utf8");
const withLong = (body: string) => `{"type":"user","pad":"${LONG}",${body}}`;

test("hostile long lines: both paths agree on every one", () => {
  const cases: Array<[string, Buffer]> = [
    [
      "invalid UTF-8 in a long string",
      Buffer.concat([line(`{"type":"user","t":"${LONG}`), Buffer.from([0xff, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xe2, 0x82]), line('"}')]),
    ],
    ["escapes", line(withLong(`"e":"${'\\\\ \\" \\\\\\" \\/ \\b\\f\\n\\r\\t \\u0041 \\ud83d\\ude00 \\ud800 \\udfff x'.repeat(60)}"`))],
    ["backslash runs before quotes", line(withLong(`"e":"${"\\\\".repeat(301)}","f":"${"a\\\\\\\\".repeat(200)}"`))],
    ["raw tab in a long string", line(withLong(`"toolUseResult":{"stdout":"${"y".repeat(500)}\t"}`))],
    ["raw CR in a long string", line(withLong(`"e":"${"y".repeat(500)}\ry"`))],
    ["raw 0x01 in a long string", line(withLong(`"e":"${"y".repeat(500)}\u0001"`))],
    ["invalid escape", line(withLong(`"e":"${"y".repeat(500)}\\x"`))],
    ["short bad \\u", line(withLong(`"e":"${"y".repeat(500)}\\u12g4"`))],
    ["a short \\u0000 string", line(withLong(`"z":"\\u00000","e":"${"y".repeat(500)}"`))],
    ["\\u0000 inside a long string", line(withLong(`"e":"${"y".repeat(500)}\\u0000"`))],
    ["duplicate keys, long then short", line(withLong(`"d":"${"y".repeat(500)}","d":"short"`))],
    ["duplicate keys, short then long", line(withLong(`"d":"short","d":"${"y".repeat(500)}"`))],
    ["duplicate parents", line(withLong(`"o":{"t":"${"y".repeat(500)}"},"o":{"t":"${"z".repeat(400)}"}`))],
    ["truncated inside a long string", line(`{"type":"user","t":"${LONG}`)],
    ["two objects glued", line(`${withLong('"a":1')}{"b":2}`)],
    ["trailing garbage", line(`${withLong('"a":1')} x`)],
    ["nesting past 200", line(withLong(`"n":${"[".repeat(250)}"${"y".repeat(300)}"${"]".repeat(250)}`))],
    ["nesting at 200", line(withLong(`"n":${"[".repeat(198)}"${"y".repeat(300)}"${"]".repeat(198)}`))],
    ["4-byte characters across SIMD blocks", line(withLong(`"e":"${"a😀bc日本é→".repeat(200)}"`))],
    ["a top-level array", line(`["${LONG}"]`)],
    ["numbers", line(withLong(`"n":[-0,1e5,1.5E-3,0,-12.25,1e+2]`))],
    ["bad numbers", line(withLong(`"n":01`))],
    ["bad fraction", line(withLong(`"n":1.`))],
    ["literals", line(withLong(`"l":[true,false,null]`))],
    ["bad literal", line(withLong(`"l":nul`))],
    ["whitespace everywhere", line(` \t{ "type" : "user" ,\r "pad" : "${LONG}" , "a" : [ 1 , { } , [ ] ] } \t`)],
    ["__proto__ holding a long string", line(withLong(`"__proto__":"${"y".repeat(500)}"`))],
    ["long strings in arrays", line(withLong(`"a":["${"y".repeat(400)}",1,"${"z".repeat(400)}"]`))],
    ["a long key", line(withLong(`"${"k".repeat(400)}":"${"y".repeat(400)}"`))],
    ["an escaped long key", line(withLong(`"k\\u00e9\\n${"k".repeat(400)}":{"v":"${"y".repeat(400)}"}`))],
    [
      "a tool result",
      line(
        withLong(`"message":{"content":[{"type":"tool_result","content":[{"type":"text","text":"${"é".repeat(600)}"},{"type":"image"}]}]}`),
      ),
    ],
    ["prompt as a long string", line(`{"type":"user","message":{"role":"user","content":"${"p\\n".repeat(1200)}"},"isMeta":true}`)],
    ["a side-car", line(withLong(`"toolUseResult":{"stdout":"${"o\\n".repeat(400)}","stderr":"","n":[1,{"a":"${"é".repeat(300)}"}]}`))],
    ["a side-car array", line(withLong(`"toolUseResult":[${'"x",'.repeat(400)}{"t":"${"y".repeat(400)}"}]`))],
    ["a small side-car", line(withLong(`"toolUseResult":{"stdout":"ok"}`))],
    ["a side-car, then a string under its key", line(withLong(`"toolUseResult":{"s":"${"y".repeat(2000)}"},"toolUseResult":"err"`))],
    ["a string, then a side-car under its key", line(withLong(`"toolUseResult":"err","toolUseResult":{"s":"${"y".repeat(2000)}"}`))],
    ["two side-cars", line(withLong(`"toolUseResult":{"s":"${"y".repeat(2000)}"},"toolUseResult":{"t":"${"z".repeat(1500)}","u":1}`))],
    ["a side-car holding a short \\u0000 string", line(withLong(`"toolUseResult":{"z":"\\u00000","s":"${"y".repeat(2000)}"}`))],
    ["a side-car's look-alike deeper down", line(withLong(`"m":{"toolUseResult":{"s":"${"y".repeat(2000)}"}}`))],
    ["a side-car with a bad escape", line(withLong(`"toolUseResult":{"s":"${"y".repeat(2000)}\\q"}`))],
    ["a side-car left open", line(withLong(`"toolUseResult":{"s":"${"y".repeat(2000)}"`).slice(0, -1))],
    ["a side-car nested too deep", line(withLong(`"toolUseResult":${"[".repeat(199)}"${"y".repeat(2000)}"${"]".repeat(199)}`))],
    ["__proto__ in a side-car", line(withLong(`"toolUseResult":{"__proto__":{"s":"${"y".repeat(2000)}"}}`))],
  ];
  let fastPath = 0;
  for (const [name, buf] of cases) {
    const { fast } = sameLine(buf, name);
    if (fast.ok === true && lazyOf(fast.value, "pad")) fastPath += 1;
  }
  // Not vacuous: the valid lines did go the fast way (invalid UTF-8, \u0000 and deep nesting do not).
  assert.ok(fastPath >= 16, `only ${fastPath} cases took the fast path`);
});

const piece = fc.constantFrom(
  "a",
  "Z",
  " ",
  "é",
  "→",
  "日",
  "😀",
  '\\"',
  "\\\\",
  "\\n",
  "\\t",
  "\\u00e9",
  "\\ud83d\\ude00",
  "\\ud800",
  "\\x",
  "\t",
  "\u0001",
  "\\",
);
const body = fc.array(piece, { maxLength: 120 }).map((a) => a.join(""));

test("the SIMD scan matches the JavaScript scan and JSON.parse on string bodies", () => {
  fc.assert(fc.property(fc.nat(40), body, fc.constantFrom("}", "", '",'), checkScan), { numRuns: 3000 });
});

test("random long records: the same value on both paths", () => {
  const text = fc.oneof(body, fc.string({ unit: "binary", maxLength: 400 }), fc.constant(LONG.slice(0, 300)));
  const objects = jsonObjects(text);
  fc.assert(
    fc.property(objects, (o) => {
      const s = JSON.stringify({ type: "user", pad: LONG, ...o });
      sameLine(Buffer.from(s, "utf8"), s.slice(0, 80));
    }),
    { numRuns: 150 },
  );
});
