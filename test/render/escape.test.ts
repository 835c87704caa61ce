import { test } from "node:test";
import assert from "node:assert/strict";
import { mdBlock, mdHeading, mdInline } from "../../src/render/md-escape.js";
import { sanitize } from "../../src/render/sanitize.js";
import { jsonSafe } from "../../src/render/emit.js";
import { renderTerminal } from "../../src/render/table.js";
import { plain } from "../../src/render/palette.js";
import { renderSvg, compareChartSpec } from "../../src/render/chart.js";
import { col } from "../../src/report/model.js";

test("markdown escapes leave ordinary evidence readable: paths, ids, snake_case, prices, numbers", () => {
  for (const s of [
    "/home/dev/widget/src/main.ts",
    "mcp__big__emit_text",
    "toolu_01Xf3",
    "mcp_instructions_delta",
    "$0.2038",
    "1,234 (0/1,234)",
    "+954",
    "-5",
    "0.838",
    "Q & A",
    "C:\\",
  ]) {
    assert.equal(mdInline(s), s === "C:\\" ? "C:\\\\" : s, s);
  }
});

test("markdown escapes what GFM would turn into markup that markdown-it does not: www. autolinks, math, images", () => {
  assert.equal(mdInline("www.evil.example"), "www\\.evil.example");
  assert.equal(mdInline("(WWW.evil.example)"), "(WWW\\.evil.example)");
  assert.equal(mdInline("awww.x"), "awww.x");
  assert.equal(mdInline("www.1example.com"), "www\\.1example\\.com");
  assert.equal(mdInline("$x$"), "\\$x\\$");
  assert.equal(mdInline("![x](y)"), "\\!\\[x\\](y)");
  assert.equal(mdInline("a@b.example"), "a\\@b.example");
  assert.equal(mdInline("http://e.example"), "http\\://e.example");
  assert.equal(mdInline("&amp; &#60; & "), "&amp;amp; &amp;#60; & ");
  assert.equal(mdInline("_lead a_b trail_"), "\\_lead a_b trail\\_");
});

test("a note cannot start a block, a heading cannot lose its last #", () => {
  assert.equal(mdBlock("- item"), "\\- item");
  assert.equal(mdBlock("+ item"), "\\+ item");
  assert.equal(mdBlock("# h"), "\\# h");
  assert.equal(mdBlock("12) item"), "12\\) item");
  assert.equal(mdBlock("3. item"), "3\\. item");
  assert.equal(mdBlock("3.5 tokens"), "3.5 tokens");
  assert.equal(mdBlock("-5 tokens"), "-5 tokens");
  assert.equal(mdBlock("---"), "\\---");
  assert.equal(mdBlock("-"), "\\-");
  assert.equal(mdBlock("      code"), "code");
  assert.equal(mdBlock("> q"), "&gt; q");
  assert.equal(mdHeading("C # and #1 #"), "C \\# and \\#1 \\#");
  assert.equal(mdHeading("a#b"), "a#b");
});

const INVISIBLE = [..."\u200b\u200c\u200d\u200e\u200f\u2060\u2061\u2062\u2063\u2064\ufeff\u2028\u2029\u202a\u202e\u2066\u2069\u061c\u00ad"];

test("invisible, bidi and line-separator characters show as escapes in the human formats", () => {
  assert.equal(sanitize("l\u200bab"), "l\\u200bab");
  for (const c of INVISIBLE) {
    const code = c.charCodeAt(0);
    assert.equal(sanitize(`a${c}b`), code <= 0xff ? `a\\x${code.toString(16)}b` : `a\\u${code.toString(16).padStart(4, "0")}b`);
  }
  assert.equal(sanitize("x\udb40\udc41y"), "x\\u{e0041}y");
  assert.equal(sanitize("a\u0000\u001b\u007f\u009b"), "a\\x00\\x1b\\x7f\\x9b");
  // Visible text stays: CJK, emoji, accents, no-break and narrow no-break spaces (locale digit groups).
  for (const s of ["日本語", "😀", "İstanbul", "179\u00a0889", "179\u202f889", "e\u0301"]) assert.equal(sanitize(s), s);
});

test("JSON escapes exactly the characters the human formats escape, and keeps their value", () => {
  const codes: number[] = [];
  for (let c = 0; c <= 0xffff; c++) if (c < 0xd800 || c > 0xdfff) codes.push(c);
  for (let c = 0xe0000; c <= 0xe007f; c++) codes.push(c);
  for (const code of codes) {
    const c = String.fromCodePoint(code);
    if (c === '"' || c === "\\") continue;
    const json = jsonSafe(JSON.stringify(c));
    assert.equal(json !== `"${c}"`, sanitize(c) !== c, `U+${code.toString(16)}: JSON and human formats disagree`);
    assert.equal(JSON.parse(json), c);
    assert.ok(/^[\x20-\x7e]*$/.test(json) || json === `"${c}"`, `U+${code.toString(16)}`);
  }
});

test("terminal tables show evidence in headers and summary keys escaped", () => {
  const out = renderTerminal(
    {
      title: "t",
      summary: [["k\u202e", "v\u200b"]],
      tables: [{ id: "x", title: "x", columns: [col("a", "h\u001b[2J")], rows: [{ a: "c\u2028" }] }],
      warnings: [],
    },
    plain,
  );
  assert.doesNotMatch(out, /[\u001b\u200b\u202e\u2028]/);
  for (const s of ["k\\u202e", "v\\u200b", "h\\x1b[2J", "c\\u2028"]) assert.ok(out.includes(s), s);
});

test("chart text from evidence is escaped in the SVG", async () => {
  const svg = await renderSvg(
    compareChartSpec(
      [{ label: "<script>alert(1)</script>\u200b", run: "r\u202e1", firstRequestTokens: 5, deltaVsBaseline: null, baselineLabel: null }],
      "t\u2028",
    ),
  );
  assert.doesNotMatch(svg, /<script|[\u200b\u202e\u2028]/);
  assert.ok(svg.includes("\\u200b") && svg.includes("r\\u202e1"));
});

test("JSON escapes unsafe characters anywhere in a long piece, and leaves a near miss alone", () => {
  const safe = "a".repeat(70_000);
  for (const c of ["\u001b", "\u007f", "\u009b", "\u2028", "\u2029", "\u202e", "\u200b", "\ufeff", "\udb40\udc41"]) {
    const raw = JSON.stringify(`${safe}${c}[2J${safe}`);
    const json = jsonSafe(raw);
    assert.ok(/^[\x20-\x7e]*$/.test(json), `U+${c.codePointAt(0)!.toString(16)} left raw`);
    assert.equal(JSON.parse(json), JSON.parse(raw));
  }
  // A non-tag pair starting with the tag block's lead surrogate passes the quick test but is kept.
  const near = `${safe}\udb40\udfff${safe}`;
  assert.equal(jsonSafe(near), near);
  assert.equal(jsonSafe(safe), safe);
});
