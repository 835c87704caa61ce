/**
 * `urlRefs` against the regex it replaced (`/url\(\s*(['"]?)(.*?)\1\s*\)/gi`, group 2 of each match), on
 * random values, and in linear time on a megabyte of `url(` (the regex read the rest of the line again
 * after each one: this guards against quadratic time).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { urlRefs } from "../../src/render/svg-safe.js";

const old = (v: string) => [...v.matchAll(/url\(\s*(['"]?)(.*?)\1\s*\)/gi)].map((m) => m[2]!);

test("urlRefs finds what the regex found, on random values", () => {
  const pieces = ["url(", "URL(", "(", ")", " ", "\t", "\n", "\r", "'", '"', "#clip1", "#", "a", "-", "é"];
  let s = 11;
  const next = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  for (let n = 0; n < 40_000; n++) {
    let v = "";
    const len = Math.floor(next() * 16);
    for (let i = 0; i < len; i++) v += pieces[Math.floor(next() * pieces.length)]!;
    assert.deepEqual(urlRefs(v), old(v), JSON.stringify(v));
  }
  assert.deepEqual(urlRefs("fill:url(#g1); stroke: url( '#g2' )"), ["#g1", "#g2"]);
});

test("urlRefs takes linear time on a megabyte of url(", () => {
  for (const [v, want] of [
    ["url(".repeat(250_000), []],
    ['url("'.repeat(200_000), []],
    [`${"url( ".repeat(200_000)}\n)`, ["url( ".repeat(199_999).trimEnd()]],
    [`${"url(".repeat(250_000)}#a)`, [`${"url(".repeat(249_999)}#a`]],
  ] as const) {
    const t = performance.now();
    const got = urlRefs(v);
    const took = performance.now() - t;
    assert.ok(took < 3000, `${v.slice(0, 6)}… took ${Math.round(took)} ms: quadratic again?`);
    assert.deepEqual(got, want);
  }
});
