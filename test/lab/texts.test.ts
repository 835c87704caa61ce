import { test } from "node:test";
import assert from "node:assert/strict";
import { codewordsFor, instructionsText, type LabEra, type LabLang } from "../../src/lab/instructions-text.js";
import { CJK_PER_LINE, WORD_LIST, emitMarkers, emitText } from "../../src/lab/output-text.js";

/** Markers as a model could read them: every complete `[at N]`, wherever it is. */
const markers = (t: string) => [...t.matchAll(/\[at (\d+)\]/g)].map((m) => ({ n: Number(m[1]), at: m.index! }));
const lastMarker = (t: string) => Math.max(...markers(t).map((m) => m.n));
const bytes = (s: string) => Buffer.byteLength(s, "utf8");
const text = (chars: number, lang: LabLang, era: LabEra = "legacy") => instructionsText(chars, lang, codewordsFor(chars, lang, era));

test("instructions: exactly N chars, codewords at both ends, each [at N] sits at offset N about every 250 chars", () => {
  for (const lang of ["en", "ja"] as const) {
    for (const n of [58, 59, 250, 1000, 2048, 3000, 5000, 20000]) {
      const cw = codewordsFor(n, lang, "legacy");
      const t = instructionsText(n, lang, cw);
      assert.equal(t.length, n, `${lang} ${n}`);
      assert.ok(t.startsWith(`BEGIN codeword: ${cw.begin}. `), `${lang} ${n} start`);
      assert.ok(t.endsWith(` END codeword: ${cw.end}.`), `${lang} ${n} end`);
      const ms = markers(t);
      for (const m of ms) assert.equal(m.at, m.n, `${lang} ${n}: marker [at ${m.n}] found at ${m.at}`);
      for (const [i, m] of ms.entries())
        assert.ok(m.n >= 250 * (i + 1) && m.n < 250 * (i + 1) + 120, `${lang} ${n}: marker ${i + 1} at ${m.n}`);
      if (n >= 1000) assert.ok(ms.length >= Math.floor((n - 120) / 250) - 1, `${lang} ${n}: ${ms.length} markers`);
    }
  }
});

test("instructions: the seed 000 figures (last visible marker, Japanese bytes) — computed from the text, not the generator", () => {
  assert.equal(lastMarker(text(1000, "en")), 763);
  assert.equal(lastMarker(text(5000, "en").slice(0, 2048)), 2009);
  assert.equal(lastMarker(text(20000, "en").slice(0, 2048)), 2009);
  assert.equal(lastMarker(text(20000, "en")), 19808);
  const ja = text(3000, "ja");
  assert.equal(ja.length, 3000);
  assert.equal([...ja].length, 3000, "no surrogate pairs: chars = code points");
  assert.equal(bytes(ja), 7956);
  assert.equal(bytes(ja.slice(0, 2048)), 5452);
  assert.equal(lastMarker(ja.slice(0, 2048)), 2026);
  // The dual-era text has other codewords of the same length: the same markers.
  assert.equal(lastMarker(text(1000, "en", "modern")), 763);
  assert.equal(bytes(text(3000, "ja", "modern")), 7956);
});

test("instructions: a longer text starts with the shorter one (only the cut moves)", () => {
  const a = text(5000, "en");
  const b = text(20000, "en");
  assert.equal(a.slice(0, 4900).replace(/^BEGIN codeword: \S+/, ""), b.slice(0, 4900).replace(/^BEGIN codeword: \S+/, ""));
});

test("codewords: deterministic, 7 letters + 4 digits, a different pair per length, language and era", () => {
  const seen = new Set<string>();
  for (const n of [1000, 3000, 5000, 20000]) {
    for (const lang of ["en", "ja"] as const) {
      const legacy = codewordsFor(n, lang, "legacy");
      const modern = codewordsFor(n, lang, "modern");
      assert.deepEqual(codewordsFor(n, lang, "legacy"), legacy);
      for (const c of [legacy.begin, legacy.end, modern.begin, modern.end]) assert.match(c, /^[A-Z]{7}-\d{4}$/);
      assert.notEqual(legacy.begin.split("-")[0], legacy.end.split("-")[0]);
      // Disjoint word lists: the word alone tells initialize from server/discover.
      for (const m of [modern.begin, modern.end]) assert.ok(![legacy.begin, legacy.end].some((l) => l.split("-")[0] === m.split("-")[0]));
      const key = `${legacy.begin}/${legacy.end}/${modern.begin}/${modern.end}`;
      assert.ok(!seen.has(key), key);
      seen.add(key);
    }
  }
});

test("emit_text: exactly N chars for 30,000 / 52,000 / 66,000; markers on their own lines; numbered lines of 8 listed words", () => {
  for (const n of [30000, 52000, 66000]) {
    const t = emitText(n);
    const m = emitMarkers(n);
    assert.equal(t.length, n);
    const lines = t.split("\n");
    assert.equal(lines.pop(), "", "ends with a newline");
    assert.equal(lines[0], `BEGIN-MARKER: ${m.start}`);
    assert.equal(lines[lines.length - 1], `END-MARKER: ${m.end}`);
    assert.match(m.start, /^start-[0-9a-f]{8}$/);
    assert.match(m.end, /^end-[0-9a-f]{8}$/);
    const body = lines.slice(1, -1);
    for (const [i, l] of body.slice(0, -1).entries()) {
      const [num, ...words] = l.split(" ");
      assert.equal(num, String(i + 1).padStart(6, "0"));
      assert.equal(words.length, 8, l);
      for (const w of words) assert.ok(WORD_LIST.includes(w), w);
    }
    assert.ok(body.length > n / 70 && body.length < n / 50, `${body.length} lines`);
    assert.equal(emitText(n), t, "deterministic");
  }
  assert.equal(WORD_LIST.length, 52);
  assert.equal(new Set(WORD_LIST).size, 52);
  assert.notEqual(emitText(30000).slice(0, 200), emitText(30001).slice(0, 200));
});

test("emit_text --cjk: lines of 59 BMP ideographs, 3 UTF-8 bytes each; tiny sizes still exact", () => {
  const n = 24000;
  const t = emitText(n, "cjk");
  assert.equal(t.length, n);
  const lines = t.split("\n").slice(1, -2);
  for (const l of lines.slice(0, -1)) {
    assert.equal(l.length, CJK_PER_LINE);
    assert.match(l, /^[\u4e00-\u9fa5]+$/);
  }
  const ascii = [...t].filter((c) => c.charCodeAt(0) < 0x80).length;
  assert.equal(bytes(t), ascii + 3 * (n - ascii));
  assert.ok(bytes(t) > 70000 && bytes(t) < 72000, `${bytes(t)} bytes (seed 003: 71,084)`);
  for (const k of [0, 1, 10, 40, 41, 60]) assert.equal(emitText(k).length, k, String(k));
});
