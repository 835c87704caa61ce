/**
 * `breakable` without its quadratic regexes: the same break points as the regexes it replaced, on every
 * string of the samples and on random strings of separators, and linear time on a megabyte of them (the
 * regexes took seconds on 50,000 dots and would take hours on a megabyte; this guards against quadratic time).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { breakable } from "../../src/render/html.js";
import { escapeHtml } from "../../src/render/html-escape.js";
import { filesUnder, sample } from "../helpers.js";

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/;
/** `breakable` as it was. */
function oldBreakable(escaped: string): string {
  return escaped.replace(/[^\s<>]{16,}/g, (run) => {
    if (ISO_TIME.test(run)) return run;
    const seps =
      run.length >= 24
        ? /(\D[.,:]+|[.,:]+(?=\D)|[/\\_\-=]+)(?=[^\s/\\_\-.,=:])/g
        : /(\D[.,:]+|[.,:]+(?=\D)|[/\\=]+|__+)(?=[^\s/\\_\-.,=:])/g;
    return run.replace(seps, "$1<wbr>");
  });
}

test("breakable breaks where the regexes did, on every line of the samples", () => {
  let changed = 0;
  for (const f of filesUnder(sample(), (p) => /\.(jsonl|json|txt|log|md)$/.test(p) && statSync(p).size < 4_000_000)) {
    for (const line of readFileSync(f, "utf8").split("\n")) {
      const e = escapeHtml(line);
      const want = oldBreakable(e);
      assert.equal(breakable(e), want, `${f}: ${line.slice(0, 200)}`);
      if (want !== e) changed++;
    }
  }
  assert.ok(changed > 100, `only ${changed} lines had break points`);
});

test("breakable breaks where the regexes did, on random runs of separators", () => {
  const pieces = ["/", "\\", "_", "__", "-", ".", ",", ":", "=", "a", "Z", "1", "9", "&amp;", " ", "<", "é", "\ud83d"];
  let s = 7;
  const next = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  for (let n = 0; n < 30_000; n++) {
    let t = "";
    const len = 10 + Math.floor(next() * 30);
    for (let i = 0; i < len; i++) t += pieces[Math.floor(next() * pieces.length)]!;
    assert.equal(breakable(t), oldBreakable(t), JSON.stringify(t));
  }
});

test("breakable takes linear time on a megabyte of dots, slashes or underscores", () => {
  for (const [run, want] of [
    [`x${".".repeat(1_000_000)}`, `x${".".repeat(1_000_000)}`],
    [`x${"/".repeat(1_000_000)}`, `x${"/".repeat(1_000_000)}`],
    [`${"a".repeat(20)}${"_".repeat(1_000_000)}`, `${"a".repeat(20)}${"_".repeat(1_000_000)}`],
    [`${"./".repeat(500_000)}x`, `${"./".repeat(500_000)}<wbr>x`],
  ] as const) {
    const t = performance.now();
    assert.equal(breakable(run), want);
    const took = performance.now() - t;
    assert.ok(took < 3000, `${run.slice(0, 8)}… took ${Math.round(took)} ms: quadratic again?`);
  }
});
