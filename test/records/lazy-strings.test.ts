import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseLine, parseWhole } from "../../src/records/json.js";
import { copyProperty, defineLazy, isStringAt, lazyOf, stringLength, type LazyString } from "../../src/records/lazy-strings.js";

// A holder keeps its undecoded strings as key/string pairs, a Map past a few (records/lazy-strings.ts).
// Against a model holding plain strings: any sequence of defining, redefining, assigning and copying,
// on objects and arrays, with few keys and with more than the pairs hold, reads the same everywhere.

/** An undecoded string whose bytes are `value` as a JSON string token. */
function lazy(value: string): LazyString {
  const line = Buffer.from(JSON.stringify(value), "utf8");
  return { line, from: 0, to: line.length, units: value.length };
}

type Op = { op: "define" | "assign" | "copy"; key: number; value: string };

const ops = fc.array(
  fc.record({
    op: fc.constantFrom("define", "define", "assign", "copy"),
    key: fc.integer({ min: 0, max: 20 }),
    value: fc.string({ maxLength: 8 }),
  }) as fc.Arbitrary<Op>,
  { maxLength: 60 },
);

function agree(
  holder: Record<string | number, unknown>,
  model: Record<string | number, unknown>,
  lazyKeys: Set<string | number>,
  where: string,
) {
  assert.deepEqual(Object.keys(holder), Object.keys(model), `${where}: keys`);
  for (const k of Object.keys(model)) {
    const key = Array.isArray(holder) ? Number(k) : k;
    assert.equal(lazyOf(holder, key) !== undefined, lazyKeys.has(key), `${where}: lazyOf .${k}`);
    assert.equal(
      stringLength(holder, key),
      typeof model[k] === "string" ? (model[k] as string).length : undefined,
      `${where}: length .${k}`,
    );
    assert.equal(isStringAt(holder, key), typeof model[k] === "string", `${where}: isStringAt .${k}`);
  }
  assert.equal(JSON.stringify(holder), JSON.stringify(model), `${where}: JSON`);
}

for (const kind of ["object", "array"] as const) {
  test(`${kind} holders: defining, redefining, assigning and copying undecoded strings read as plain strings do`, () => {
    fc.assert(
      fc.property(ops, (list) => {
        const holder: Record<string | number, unknown> = kind === "array" ? (Array.from({ length: 21 }, () => 0) as never) : {};
        const model: Record<string | number, unknown> = kind === "array" ? (Array.from({ length: 21 }, () => 0) as never) : {};
        const source: Record<string, unknown> = {};
        defineLazy(source, "s", lazy("from elsewhere"));
        const lazyKeys = new Set<string | number>();
        for (const { op, key: n, value } of list) {
          const key = kind === "array" ? n : `k${n}`;
          if (op === "define") {
            defineLazy(holder, key, lazy(value));
            model[key] = value;
            lazyKeys.add(key);
          } else if (op === "assign" || kind === "array") {
            holder[key] = value.length;
            model[key] = value.length;
            lazyKeys.delete(key);
          } else {
            // copyProperty names keys as strings: objects only (records/transcript.ts).
            copyProperty(source, "s", holder, String(key));
            model[key] = "from elsewhere";
            lazyKeys.add(key);
          }
        }
        agree(holder, model, lazyKeys, JSON.stringify(list));
        // Reading decodes; reading again gives the same; the counted length still answers.
        agree(holder, model, lazyKeys, `${JSON.stringify(list)} (read twice)`);
      }),
      { numRuns: 400 },
    );
  });
}

/** How many undecoded strings `v` holds, all the way down. */
function lazies(v: unknown): number {
  if (v === null || typeof v !== "object") return 0;
  let n = 0;
  for (const k of Object.keys(v)) {
    if (lazyOf(v, Array.isArray(v) ? Number(k) : k)) n++;
    else n += lazies((v as Record<string, unknown>)[k]);
  }
  return n;
}

test("lines with more long strings in one object or array than the pairs hold: both paths agree", () => {
  for (const n of [1, 2, 7, 8, 9, 16, 40]) {
    const strings = Array.from({ length: n }, (_, i) => `${String.fromCharCode(97 + (i % 26))}é\\n`.repeat(700 + i));
    const obj = strings.map((s, i) => `"k${i}":"${s}"`).join(",");
    const arr = strings.map((s) => `"${s}"`).join(",");
    for (const text of [
      `{"type":"user","o":{${obj}},"a":[${arr}],"d":{${obj},"k0":"short"}}`,
      `{"type":"user",${obj},"toolUseResult":{${obj}}}`,
    ]) {
      const buf = Buffer.from(text, "utf8");
      const raw = { line: 1, buf, bytes: buf.length, tooLong: false, unterminated: false };
      const fast = parseLine(raw);
      assert.equal(fast.ok, true);
      // Not vacuous: the fast path did leave them undecoded.
      assert.ok(lazies((fast as { value: object }).value) >= n, `${n} strings undecoded`);
      assert.deepStrictEqual(fast, parseWhole(raw), `${n} strings`);
    }
  }
});
