import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { formatInt } from "../../src/report/int-format.js";

// The slow path formatInt stands in for, and toLocaleString, which cell counts used.
const INTL = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const same = (n: number) => {
  assert.equal(formatInt(n), INTL.format(n), String(n));
  if (Number.isInteger(n)) assert.equal(formatInt(n), n.toLocaleString("en-US"), String(n));
};

test("formatInt writes every integer to ±200,000 as Intl.NumberFormat en-US does", () => {
  for (let n = -200_000; n <= 200_000; n++) same(n);
});

test("formatInt agrees with Intl at every power of ten and its neighbours, the safe-integer edges and past them", () => {
  for (let k = 0; k <= 22; k++) for (const d of [-2, -1, 0, 1, 2]) for (const sign of [1, -1]) same(sign * (10 ** k + d));
  for (const n of [
    Number.MAX_SAFE_INTEGER,
    -Number.MAX_SAFE_INTEGER,
    2 ** 53,
    -(2 ** 53),
    2 ** 53 + 2,
    1e21,
    -1e21,
    1.7976931348623157e308,
  ])
    same(n);
  // What only Intl knows: -0, fractions (rounded half away from zero), NaN and the infinities.
  for (const n of [-0, 0.5, 1.5, 2.5, -0.5, -2.5, 999.5, 999_999.5, 0.49999, 1e-7, -1e-7, 123_456.789, NaN, Infinity, -Infinity]) same(n);
  assert.equal(formatInt(-0), "-0");
  assert.equal(formatInt(1234567), "1,234,567");
  assert.equal(formatInt(-1000), "-1,000");
});

test("formatInt agrees with Intl on random integers up to 2^53 and on random doubles", () => {
  fc.assert(fc.property(fc.maxSafeInteger(), same), { numRuns: 50_000, seed: 14 });
  fc.assert(fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 }), same), { numRuns: 50_000, seed: 15 });
  fc.assert(fc.property(fc.double(), same), { numRuns: 20_000, seed: 16 });
});
