import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { sanitize } from "../../src/render/sanitize.js";

// sanitize as it was before its one-class test: the replacement always run.
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb]|\udb40[\udc00-\udc7f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
function slow(s: string): string {
  return s.replace(UNSAFE, (c) => {
    const named = NAMED[c];
    if (named) return named;
    if (c.length === 2) return `\\u{${c.codePointAt(0)!.toString(16)}}`;
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

test("sanitize's quick test skips only strings the full replacement leaves alone: every UTF-16 unit, alone and in context", () => {
  for (let u = 0; u <= 0xffff; u++) {
    const c = String.fromCharCode(u);
    for (const s of [c, `a${c}b`, `${c}\udc41`, `\udb40${c}`, `\ud83d${c}`, `${c}\ude00`])
      assert.equal(sanitize(s), slow(s), `U+${u.toString(16)}`);
  }
  for (let cp = 0xe0000; cp <= 0xe007f; cp++) assert.equal(sanitize(String.fromCodePoint(cp)), slow(String.fromCodePoint(cp)));
  assert.equal(sanitize("plain text, 1,234 — ok…"), "plain text, 1,234 — ok…");
});

test("sanitize equals the full replacement on random strings of units, pairs, lone halves, tags and controls", () => {
  const unit = fc.oneof(
    fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)),
    fc.constantFrom("\ud83d\ude00", "\udb40\udc41", "\ud800", "\udfff", "\u200b", "\n", "\x1b", "a", " ", "…", "漢"),
  );
  fc.assert(
    fc.property(fc.array(unit, { maxLength: 30 }), (a) => {
      const s = a.join("");
      assert.equal(sanitize(s), slow(s), JSON.stringify(s));
    }),
    { numRuns: 20_000, seed: 14 },
  );
});
