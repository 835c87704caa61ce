import { test } from "node:test";
import assert from "node:assert/strict";
import { checkAnswer, compileProbe, extractProbe, parseAnswer } from "../../src/analyses/probe.js";

const P = compileProbe();

test("default probe: both codewords and the largest marker", () => {
  const t = "BEGIN codeword: WAXWING-4465. a [at 250] b [at 763] c END codeword: KESTREL-1907.";
  assert.deepEqual(extractProbe(t, P), { begin: "WAXWING-4465", end: "KESTREL-1907", lastMarker: 763, markers: 2 });
});

test("a cut text: END is null, a half-written marker does not count", () => {
  const t = "BEGIN codeword: TANAGER-5810. x [at 1753] y [at 2009] z [at 22… [truncated]";
  assert.deepEqual(extractProbe(t, P), { begin: "TANAGER-5810", end: null, lastMarker: 2009, markers: 2 });
});

test("no probe values at all: null", () => {
  assert.equal(extractProbe("Use search_docs before answering.", P), null);
});

test("configurable patterns: named group, first group, or the whole match", () => {
  const p = compileProbe({ begin: "START=(\\w+)", end: "(?<end>STOP-\\d+)", marker: "@(\\d+)" });
  assert.deepEqual(extractProbe("START=alpha @5 @12 STOP-9", p), { begin: "alpha", end: "STOP-9", lastMarker: 12, markers: 2 });
  assert.throws(() => compileProbe({ marker: "(" }), /--probe-marker/);
});

test("answers in the seed's form, NONE included", () => {
  assert.deepEqual(parseAnswer("BEGIN=TANAGER-5810 END=NONE LAST=2009"), {
    begin: "TANAGER-5810",
    end: "NONE",
    last: "2009",
    form: "keyed",
  });
  assert.equal(parseAnswer("I cannot see any codeword.").form, "free");
});

test("answer check: matches, wrong value, never-delivered codeword, missing key", () => {
  const delivered = extractProbe("BEGIN codeword: TANAGER-5810. [at 2009]", P);
  const all = new Set(["TANAGER-5810"]);
  assert.equal(checkAnswer("BEGIN=TANAGER-5810 END=NONE LAST=2009", delivered, all).matches, true);
  const wrong = checkAnswer("BEGIN=TANAGER-5810 END=BITTERN-7724 LAST=2009", delivered, all);
  assert.equal(wrong.matches, false);
  assert.deepEqual(wrong.invented, ["BITTERN-7724"], "the END codeword was cut off: answering it would be invention");
  const missing = checkAnswer("BEGIN=TANAGER-5810", delivered, all);
  assert.match(missing.mismatches.join(), /LAST: not answered, delivered 2009/);
  const none = checkAnswer("BEGIN=NONE END=NONE LAST=NONE", null, new Set());
  assert.equal(none.matches, true);
  assert.deepEqual(none.expected, { begin: "NONE", end: "NONE", last: "NONE" });
});

test("free-text answers: the delivered codewords must appear", () => {
  const d = extractProbe("BEGIN codeword: HERON-4821. END codeword: OSPREY-3094.", P);
  const s = new Set(["HERON-4821", "OSPREY-3094"]);
  assert.equal(checkAnswer("The codewords are HERON-4821 and OSPREY-3094.", d, s).matches, true);
  assert.equal(checkAnswer("Only HERON-4821 is visible.", d, s).matches, false);
});
