import { test } from "node:test";
import assert from "node:assert/strict";
import { splitJson, type SplitItem } from "../../src/records/json-split.js";

async function split(text: string, mode: "array" | "values", chunk = 5, max?: number): Promise<SplitItem[]> {
  const buf = Buffer.from(text, "utf8");
  const chunks = async function* () {
    for (let i = 0; i < buf.length; i += chunk) yield buf.subarray(i, i + chunk);
  };
  const out: SplitItem[] = [];
  for await (const it of splitJson(chunks(), mode, max)) out.push(it);
  return out;
}
const brief = (items: SplitItem[]) =>
  items.map((i) =>
    i.kind === "value"
      ? [i.index, i.line, i.offset, i.tooLong ? `(${i.bytes} bytes)` : i.buf.toString("utf8")]
      : i.kind === "nul"
        ? [i.line, `nul ${i.nuls} ${i.first} ${i.end} ${i.trailing}`]
        : [i.line, i.reason],
  );

test("array elements with their lines and offsets; strings hide brackets, commas and escaped quotes", async () => {
  const text = '[\n  {"a":"x],\\"}"},\n  [1, {"b":[]}],\n  "s\\\\",\n  -1.5e3, true\n]\n';
  const at = (s: string) => Buffer.from(text.slice(0, text.indexOf(s))).length;
  for (const size of [1, 3, 4096])
    assert.deepEqual(brief(await split(text, "array", size)), [
      [1, 2, 4, '{"a":"x],\\"}"}'],
      [2, 3, at("[1,"), '[1, {"b":[]}]'],
      [3, 4, at('"s'), '"s\\\\"'],
      [4, 5, at("-1.5"), "-1.5e3"],
      [5, 5, at("true"), "true"],
    ]);
});

test("values mode: JSON values one after another, a scalar at the end is whole; a stray closer is the tear", async () => {
  assert.deepEqual(brief(await split('{"a":1}\n{"b":\n2}\n7', "values")), [
    [1, 1, 0, '{"a":1}'],
    [2, 2, 8, '{"b":\n2}'],
    [3, 4, 17, "7"],
  ]);
  assert.deepEqual(brief(await split('{"a":1}\n]', "values")), [
    [1, 1, 0, '{"a":1}'],
    [2, 'JSON text stops being valid JSON at byte 9: "]" after value 1; the rest of the input is not read'],
  ]);
});

test("an element past the size limit is handed on as too long, without its bytes, and the next one is read", async () => {
  const big = `{"x":"${"y".repeat(100)}"}`;
  assert.deepEqual(brief(await split(`[${big},{"z":1}]`, "array", 7, 50)), [
    [1, 1, 1, `(${big.length} bytes)`],
    [2, 1, big.length + 2, '{"z":1}'],
  ]);
});

test("a scalar element cut at the end of an array is torn, not taken whole", async () => {
  assert.deepEqual(brief(await split("[1, 23", "array")), [
    [1, 1, 1, "1"],
    [1, "JSON array cut off inside element 2 (it starts at byte 5; the input ends at byte 6 before it closes)"],
  ]);
});

test("a tear's excerpt is the shared one: 120 characters, never ending in half a surrogate pair, however the chunks fall", async () => {
  // "😀" is two UTF-16 units (four bytes); it straddles the 120th unit of the element's text.
  const elem = '{"a":"' + "x".repeat(113) + "😀".repeat(200);
  for (const size of [1, 7, 4096]) {
    const items = await split("[" + elem, "array", size);
    assert.equal(items.length, 1);
    const tear = items[0]!;
    assert.equal(tear.kind, "tear");
    if (tear.kind !== "tear") continue;
    assert.equal(tear.excerpt, '{"a":"' + "x".repeat(113) + "…");
    // A mismatched closer far into a long element: the excerpt is still its first characters, cut whole.
    const bad = await split("[" + elem + '"]]', "array", size);
    const t = bad.find((i) => i.kind === "tear")!;
    assert.equal(t.kind === "tear" && t.excerpt, '{"a":"' + "x".repeat(113) + "…");
  }
});

test('NUL runs before the "[" and after the "]" (crash remnants) are nul items, in any chunking; NULs then garbage tear', async () => {
  const text = "\0\0 \n\0[1,2]\n\0\0\0";
  for (const chunk of [1, 2, 5, 100]) {
    assert.deepEqual(brief(await split(text, "array", chunk)), [
      [1, "nul 3 0 5 false"],
      [1, 2, 6, "1"],
      [2, 2, 8, "2"],
      [3, "nul 3 11 14 true"],
    ]);
    assert.deepEqual(brief(await split("[1]\0\0x", "array", chunk)), [
      [1, 1, 1, "1"],
      [1, 'trailing garbage after the JSON array\'s closing "]" (from byte 4); not read'],
    ]);
  }
});
