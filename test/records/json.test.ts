import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { MAX_DEPTH, nestsDeeper, parseJsonBounded, parseLine, parseWhole } from "../../src/records/json.js";
import { SKELETON_MIN_LINE } from "../../src/records/skeleton.js";

const raw = (s: string | Buffer, extra: Partial<{ unterminated: boolean; tooLong: boolean }> = {}) => {
  const buf = typeof s === "string" ? Buffer.from(s) : s;
  return { line: 1, buf, bytes: buf.length, tooLong: false, unterminated: false, ...extra };
};
const reason = (s: string | Buffer, extra = {}) => {
  const p = parseLine(raw(s, extra));
  assert.equal(p.ok, false, `expected malformed: ${String(s).slice(0, 40)}`);
  return (p as { reason: string }).reason;
};

test("each kind of bad line gets its own reason", () => {
  assert.match(reason('{"type":"user",'), /truncated record|invalid JSON/);
  assert.match(reason('{"type":"user","x":"ab', { unterminated: true }), /^half-written last line/);
  assert.match(reason('{"a":1}{"b":2}'), /^two JSON values glued on one line \(the second starts at column 8\)/);
  assert.match(reason(Buffer.alloc(64)), /^NUL bytes only \(crash remnant\)/);
  assert.match(reason(Buffer.concat([Buffer.from('{"a":1'), Buffer.alloc(8), Buffer.from("}")])), /^NUL bytes from byte 7/);
  assert.equal(reason("[1,2]"), "expected a JSON object, got an array");
  assert.equal(reason("42"), "expected a JSON object, got a number");
  assert.equal(reason('"s"'), "expected a JSON object, got a string");
  assert.equal(reason("null"), "expected a JSON object, got null");
  assert.match(reason("[".repeat(100000) + "]".repeat(100000)), /nested deeper than 200 levels/);
  // An object record whose value nests too deep and closes is kept (that value read as null): see below.
  assert.match(reason("", { tooLong: true }), /longer than a string can hold/);
  assert.match(reason("not json at all"), /^invalid JSON/);
});

test("blank and whitespace lines are not records and not malformed", () => {
  assert.equal(parseLine(raw("")).ok, "blank");
  assert.equal(parseLine(raw("  \t ")).ok, "blank");
});

test("a lone surrogate escape is valid JSON and parses", () => {
  const p = parseLine(raw('{"type":"user","t":"\\ud800x"}'));
  assert.equal(p.ok, true);
});

test("a long line nested too deep is reported from its bytes, before JSON.parse builds every level", () => {
  // Unclosed: JSON.parse would say "truncated" after building a million arrays (tens of MB); closed or not, it is too deep.
  assert.equal(reason("[".repeat(1_000_000)), "not a JSON object (an array nested deeper than 200 levels)");
  assert.equal(reason(`{"a":`.repeat(400_000)), "nested deeper than 200 levels");
  // Brackets inside strings (escaped quotes too) are text, not nesting.
  const text = `{"type":"user","t":"${"[{".repeat(20_000)}\\\"${"[".repeat(20_000)}"}`;
  assert.equal(parseLine(raw(text)).ok, true);
  assert.equal(nestsDeeper(text, MAX_DEPTH), false);
  assert.equal(nestsDeeper(Buffer.from(text), MAX_DEPTH), false);
  // Exactly the limit is allowed; one more is not; bytes and text agree with multi-byte text around.
  const at = (d: number) => `{"é":${"[".repeat(d - 1)}${"]".repeat(d - 1)}}`;
  assert.equal(nestsDeeper(at(MAX_DEPTH), MAX_DEPTH), false);
  assert.equal(nestsDeeper(at(MAX_DEPTH + 1), MAX_DEPTH), true);
  assert.equal(nestsDeeper(Buffer.from(at(MAX_DEPTH + 1)), MAX_DEPTH), true);
  const deep = "[".repeat(20_000);
  assert.equal(parseJsonBounded(deep, "too deep"), "too deep");
  assert.deepEqual(parseJsonBounded(`{"a":[1]}`, "too deep"), { a: [1] });
});

test("bytes that are not UTF-8 in a record: read as U+FFFD as before, and said as damage with where and how many", () => {
  const line = (bad: number[], pad = "") =>
    Buffer.concat([Buffer.from(`{"type":"user","pad":"${pad}","t":"ab`), Buffer.from(bad), Buffer.from('"}')]);
  for (const pad of ["", "x".repeat(SKELETON_MIN_LINE)]) {
    const at = 32 + pad.length; // 1-based byte of the first bad one
    const cases: Array<[number[], number]> = [
      [[0xed, 0xa0, 0x80], 3], // a surrogate: three U+FFFD
      [[0xff], 1],
      [[0xc3], 1], // cut short by the quote
      [[0xe6, 0x97, 0xe6, 0x97, 0xa5], 2], // a lead where a continuation byte belongs: one U+FFFD, then 日
      [[0xf0, 0x9f, 0x98], 3],
    ];
    for (const [bad, bytes] of cases) {
      const buf = line(bad, pad);
      for (const parse of [parseLine, parseWhole]) {
        const p = parse(raw(buf));
        assert.equal(p.ok, true, `${parse.name} ${bad}`);
        if (p.ok !== true) continue;
        assert.equal(p.value.t, JSON.parse(buf.toString("utf8")).t, "the value is what it was");
        assert.deepStrictEqual(p.damage, [
          { reason: `${bytes} byte${bytes === 1 ? "" : "s"} of invalid UTF-8 from byte ${at}, read as U+FFFD`, bytes },
        ]);
      }
    }
    const ok = parseLine(raw(line([0xe6, 0x97, 0xa5, 0xef, 0xbf, 0xbd], pad))); // 日 and a real U+FFFD
    assert.equal(ok.ok === true && ok.damage, undefined);
  }
  // Outside a string the line is no JSON: malformed, as before, not damaged.
  const p = parseLine(raw(Buffer.concat([Buffer.from('{"t":1'), Buffer.from([0xff]), Buffer.from("}")])));
  assert.equal(p.ok, false);
});

test("the bytes counted as not UTF-8 are exactly those Buffer#toString replaced, on every mix", () => {
  const piece = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom([0x61], [0xc3, 0xa9], [0xe6, 0x97, 0xa5], [0xf0, 0x9f, 0x98, 0x80]) },
    { weight: 2, arbitrary: fc.array(fc.integer({ min: 0x80, max: 0xff }), { minLength: 1, maxLength: 4 }) },
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 30 }), fc.boolean(), (pieces, long) => {
      const body = Buffer.from(pieces.flat());
      const pad = long ? "x".repeat(SKELETON_MIN_LINE) : "";
      const buf = Buffer.concat([Buffer.from(`{"pad":"${pad}","t":"`), body, Buffer.from('"}')]);
      const text = buf.toString("utf8");
      // The characters that are not U+FFFD are the valid sequences: what is left of the bytes was replaced.
      const realFffd = (body.toString("latin1").match(/\xef\xbf\xbd/g) ?? []).length;
      const replaced = buf.length - Buffer.byteLength(text.replace(/\ufffd/g, "")) - 3 * realFffd;
      const p = parseLine(raw(buf));
      assert.equal(p.ok, true);
      if (p.ok !== true) return;
      assert.equal(p.value.t, JSON.parse(text).t);
      assert.deepStrictEqual(
        p.damage?.map((d) => d.bytes),
        replaced ? [replaced] : undefined,
      );
    }),
    { numRuns: 2000 },
  );
});

/** A record holding `{"deep": [[[…1…]]]}` nested `d` levels in all (root 1, `deep`'s array 2, …), padded to `pad` bytes. */
const deepRecord = (d: number, pad = 0) =>
  `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]},"pad":"${"x".repeat(pad)}",` +
  `"toolUseResult":{"structuredContent":${"[".repeat(d - 2)}1${"]".repeat(d - 2)}},"tail":"é"}`;

const depthOf = (v: unknown): number =>
  v !== null && typeof v === "object" ? 1 + Math.max(0, ...Object.values(v as object).map(depthOf)) : 0;

test("a record with a value nested deeper than MAX_DEPTH is kept: that value reads as null, listed as damage; both parse paths agree", () => {
  for (const pad of [0, SKELETON_MIN_LINE, 40_000]) {
    // At the limit: kept whole, no damage.
    const atLimit = parseLine(raw(deepRecord(MAX_DEPTH, pad)));
    assert.equal(atLimit.ok, true);
    assert.equal(atLimit.ok === true && atLimit.damage, undefined);
    assert.equal(depthOf(atLimit.ok === true && atLimit.value), MAX_DEPTH);
    // One past it (the repro's 211 too): the record, its tool result and the rest of it survive.
    for (const d of [MAX_DEPTH + 1, 211]) {
      const text = deepRecord(d, pad);
      const fast = parseLine(raw(text));
      const slow = parseWhole(raw(text));
      assert.deepStrictEqual(fast, slow, `pad ${pad} depth ${d}: skeleton and whole agree`);
      assert.equal(fast.ok, true, `pad ${pad} depth ${d}`);
      if (fast.ok !== true) continue;
      assert.equal(fast.value.type, "user");
      assert.equal((fast.value as any).message.content[0].tool_use_id, "t1");
      assert.equal((fast.value as any).tail, "é");
      assert.equal(depthOf(fast.value), MAX_DEPTH);
      // The cut: the bracket at level 201 to its match.
      const at = Buffer.from(text).indexOf("[".repeat(d - 2)) + (MAX_DEPTH - 2);
      const bytes = 2 * (d - MAX_DEPTH) + 1;
      assert.deepStrictEqual(fast.damage, [
        { reason: `a value nested deeper than 200 levels (${bytes} bytes from byte ${at + 1}) read as null`, bytes },
      ]);
      let v: any = (fast.value as any).toolUseResult.structuredContent;
      for (let i = 3; i < MAX_DEPTH; i++) v = v[0];
      assert.deepStrictEqual(v, [null], "level 200 holds null where level 201 was");
    }
  }
});

test("too deep and kept only when it is an object that closes and is JSON; damage beside NULs and bad UTF-8", () => {
  const deep = "[".repeat(250) + "]".repeat(250);
  const pad = `"p":"${"x".repeat(40_000)}"`;
  assert.equal(
    reason(`{${pad},"a":${deep.slice(0, 260)}`),
    "nested deeper than 200 levels",
    "never closes (a long line, seen before JSON.parse)",
  );
  assert.match(reason(`{"a":${deep.slice(0, 260)}`), /^invalid JSON/, "never closes (a short one: JSON.parse says so first)");
  assert.match(reason(`{"a":${"[".repeat(250)}1 2${"]".repeat(250)}}`), /^invalid JSON|^nested deeper than 200 levels, and not JSON there/);
  const long = `{"a":${"[".repeat(250)}1 2${"]".repeat(250)},"p":"${"x".repeat(40_000)}"}`;
  assert.match(reason(long), /^nested deeper than 200 levels, and not JSON there \(/, "a long line's cut is checked before it is left out");
  assert.equal(reason(`[${deep}]`), "not a JSON object (an array nested deeper than 200 levels)");
  // Two cuts, NULs before the record and a byte that is not UTF-8 inside a cut value.
  const buf = Buffer.concat([
    Buffer.alloc(3),
    Buffer.from(`{"a":${"[".repeat(199)}[["`),
    Buffer.from([0xff]),
    Buffer.from(`"]]${"]".repeat(199)},"b":{"c":${deep}}}`),
  ]);
  for (const parse of [parseLine, parseWhole]) {
    const p = parse(raw(buf));
    assert.equal(p.ok, true);
    if (p.ok !== true) continue;
    assert.deepStrictEqual(p.value.b, { c: [...Array(198)].reduce((x) => [x], null) });
    assert.deepStrictEqual(
      p.damage!.map((d) => d.reason),
      [
        "3 NUL bytes before byte 4 (crash remnant), skipped",
        "1 byte of invalid UTF-8 from byte 211, read as U+FFFD",
        "a value nested deeper than 200 levels (7 bytes from byte 208) read as null",
        "a value nested deeper than 200 levels (104 bytes from byte 622) read as null",
      ],
    );
  }
});
