import { test } from "node:test";
import assert from "node:assert/strict";
import { isUtf8 } from "node:buffer";
import fc from "fast-check";
import { parseSkeleton } from "../../src/records/skeleton.js";
import { fours, loadBytes, scan, units } from "../../src/records/wasm-string.js";

// A line that is not valid UTF-8 must leave the skeleton (and be parsed whole, as today), for every class
// buffer.isUtf8 rejects, wherever the bad bytes fall against the scanner's 64- and 16-byte blocks and however
// close to the closing quote; a valid one is counted and read exactly as JSON.parse reads it.

const b = (...x: number[]): number[] => x;
const ascii = fc.nat(70).map((n) => Array.from({ length: n }, (_, k) => 0x61 + (k % 26)));
const valid = fc.constantFrom(
  b(0xc2, 0x80),
  b(0xdf, 0xbf),
  b(0xe0, 0xa0, 0x80),
  b(0xed, 0x9f, 0xbf),
  b(0xee, 0x80, 0x80),
  b(0xef, 0xbf, 0xbf),
  b(0xf0, 0x90, 0x80, 0x80),
  b(0xf4, 0x8f, 0xbf, 0xbf),
  b(0xf3, 0xbf, 0xbf, 0xbf),
  b(0xe6, 0x97, 0xa5),
);
const invalid = fc.constantFrom(
  b(0x80),
  b(0xbf),
  b(0xc0, 0x80),
  b(0xc1, 0xbf),
  b(0xe0, 0x9f, 0xbf),
  b(0xf0, 0x8f, 0xbf, 0xbf), // stray, overlong
  b(0xed, 0xa0, 0x80),
  b(0xed, 0xbf, 0xbf), // surrogates
  b(0xf4, 0x90, 0x80, 0x80),
  b(0xf5, 0x80, 0x80, 0x80),
  b(0xf8),
  b(0xff), // past U+10FFFF, never a lead
  b(0xc3),
  b(0xe6, 0x97),
  b(0xf0, 0x9f, 0x98),
  b(0xe6), // cut short
  b(0xc3, 0xc3, 0xa9),
  b(0xe6, 0x97, 0xe6, 0x97, 0xa5), // a lead where a continuation byte belongs
);
const piece = fc.oneof({ weight: 6, arbitrary: ascii }, { weight: 4, arbitrary: valid }, { weight: 1, arbitrary: invalid });
const body = fc.array(piece, { maxLength: 40 }).map((a) => a.flat());

function line(bytes: number[]): Buffer {
  return Buffer.concat([Buffer.from('{"k":"', "latin1"), Buffer.from(bytes), Buffer.from('","n":1}', "latin1")]);
}

test("the scan rejects exactly the string bodies buffer.isUtf8 rejects, and counts the valid ones", () => {
  fc.assert(
    fc.property(body, (bytes) => {
      const l = line(bytes);
      const ok = isUtf8(l);
      loadBytes(l);
      const q = scan(6, l.length);
      if (ok) {
        const s = JSON.parse(l.toString("utf8")).k as string;
        assert.equal(q, 6 + bytes.length);
        assert.equal(units(), s.length);
        assert.equal(fours(), bytes.filter((c) => c >= 0xf0).length);
      }
      // The skeleton falls back (undefined) on invalid lines; on valid ones it reads as JSON.parse does.
      const sk = parseSkeleton(l, 64);
      if (ok) assert.deepStrictEqual({ ...sk }, JSON.parse(l.toString("utf8")));
      else assert.equal(sk, undefined);
    }),
    { numRuns: 5000 },
  );
});

test("bytes of 0x80 or more outside strings make the skeleton fall back", () => {
  for (const bad of ['{"k":1\xc3\xa9}', '{\xc3\xa9"k":1}', '{"k":tr\xffue}', '{"k":"v"}\xef\xbb\xbf'])
    assert.equal(parseSkeleton(Buffer.from(bad, "latin1"), 64), undefined);
});
