import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, sample } from "../helpers.js";
import { breakable, HTML_CSP, renderHtml } from "../../src/render/html.js";
import { safeSvg } from "../../src/render/svg-safe.js";
import { requestsChartSpec } from "../../src/render/chart.js";
import { col, type OutputDocument as Report } from "../../src/report/model.js";

const EVIL = `<script>alert(1)</script> "q" 'a' & <img src=x onerror=alert(2)> \u202eevil\u202c \u001b[31mred`;

/** Tags the page itself writes; anything else in the output came from evidence and was not escaped. */
const OWN_TAGS = new Set([
  "!DOCTYPE",
  "html",
  "head",
  "meta",
  "title",
  "style",
  "body",
  "main",
  "h1",
  "h2",
  "h3",
  "ul",
  "li",
  "b",
  "section",
  "div",
  "table",
  "thead",
  "tbody",
  "tfoot",
  "tr",
  "th",
  "td",
  "p",
  "wbr",
  "figure",
]);
const SVG_TAGS = new Set(["svg", "g", "path", "rect", "line", "text", "title", "circle", "defs", "clipPath", "tspan"]);

function tagsOf(html: string): Set<string> {
  return new Set([...html.matchAll(/<\/?([!A-Za-z][\w-]*)/g)].map((m) => m[1]!));
}

function hostileReport(): Report {
  return {
    title: `Requests — ${EVIL}`,
    summary: [[EVIL, EVIL]],
    tables: [
      {
        id: "t",
        title: EVIL,
        section: EVIL,
        columns: [col("a", EVIL, "text"), col("n", "n", "int")],
        rows: [{ a: EVIL, n: 1234 }],
        footer: [{ a: EVIL, n: 1 }],
        notes: [EVIL],
      },
    ],
    charts: [
      {
        title: EVIL,
        spec: requestsChartSpec(
          [
            { chain: EVIL, index: 1, totalInputTokens: 10 },
            { chain: EVIL, index: 2, totalInputTokens: 20 },
          ],
          EVIL,
        ),
      },
    ],
    warnings: [],
  };
}

test("html: evidence in title, summary, section, headers, cells, footer, notes and chart never becomes markup", async () => {
  const html = await renderHtml(hostileReport());
  const stray = [...tagsOf(html)].filter((t) => !OWN_TAGS.has(t) && !SVG_TAGS.has(t));
  assert.deepEqual(stray, [], "tags that came from evidence");
  assert.doesNotMatch(html, /<script|<img| onerror="/i);
  assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt; &quot;q&quot; &#39;a&#39; &amp; &lt;img/);
  // Control and bidi characters print as escapes, as in the other human formats.
  assert.doesNotMatch(html, /[\u001b\u202e\u202c]/);
  assert.match(html, /\\u202eevil\\u202c \\x1b\[31mred/);
  // The chart's legend and aria-labels carry the same text, escaped.
  const svg = html.slice(html.indexOf("<svg"), html.indexOf("</svg>"));
  assert.match(svg, /&lt;script&gt;alert\(1\)/);
  assert.match(svg, /aria-label="[^"]*&lt;script&gt;/);
  assert.ok(html.includes(`<meta http-equiv="Content-Security-Policy" content="${HTML_CSP}">`));
  assert.match(HTML_CSP, /default-src 'none'/);
  assert.doesNotMatch(HTML_CSP, /script-src/, "no script source is allowed");
});

test("html: an empty table is left out as in markdown, or said in its one sentence; the page stays whole", async () => {
  const html = await renderHtml({
    title: "t",
    tables: [
      { id: "e", title: "Empty", columns: [col("a", "a", "text")], rows: [], notes: ["0 malformed"] },
      { id: "w", title: "Instructions", columns: [col("a", "a", "text")], rows: [], whenEmpty: "no server sent instructions" },
      { id: "h", title: "Parse health", section: "Parse health", columns: [col("a", "a", "text")], rows: [], notes: ["1 line"] },
    ],
    warnings: [],
  });
  assert.doesNotMatch(html, /Empty|0 malformed|\(none\)|Parse health/);
  assert.match(html, /<h2>Instructions<\/h2>\n<p class="none">No server sent instructions\.<\/p>/);
  assert.doesNotMatch(html, /<table>|<figure/);
  assert.match(html, /^<!DOCTYPE html>\n<html lang="en">/);
  assert.match(html, /<\/main>\n<\/body>\n<\/html>\n$/);
});

test("html: the Evidence section lists the files read with kind and size, and the parse health once", async () => {
  const r = await runCli(["requests", "c0ffee00", "--claude-dir", "samples/claude-home", "--format", "html"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /<section class="evidence"><h2>Evidence<\/h2>\n<p>Files read \(1\):<\/p>\n<ul>\n<li>transcript: [^<]*\/c0ffee00-1111-4222-8333-444444444444\.jsonl \(155\.9KB\)<\/li>\n<\/ul>\n<p>Parse health: 22 lines, 22 records, 0 blank, 0 malformed, 0 of an unknown type\.<\/p>\n<\/section>\n<\/main>/,
  );
  const report = await runCli(["report", "c0ffee00", "--claude-dir", "samples/claude-home", "--format", "html"]);
  assert.equal(report.stdout.match(/Parse health/g)?.length, 1, "one parse-health line, no empty Parse health section");
  assert.match(report.stdout, /<li>debug log: [^<]*\.txt/);
});

test("html: numbers right-aligned, counts with parts too, text left", async () => {
  const html = await renderHtml({
    title: "t",
    tables: [
      {
        id: "x",
        title: "x",
        columns: [col("n", "n", "int"), col("c", "c", "text"), col("s", "s", "text")],
        rows: [
          { n: 5, c: "2,194 (0/2,194)", s: "2a2a2a2a-b" },
          { n: 6, c: "3*", s: "x" },
        ],
      },
    ],
    warnings: [],
  });
  assert.match(html, /<th class="num">n<\/th><th class="num">c<\/th><th class="text">s<\/th>/);
});

test("breakable: break points in long paths and ids, none inside times, numbers or short words", () => {
  assert.equal(breakable("2026-09-14T21:44:06.942Z"), "2026-09-14T21:44:06.942Z");
  assert.equal(breakable("1,234,567,890,123,456,789"), "1,234,567,890,123,456,789");
  assert.equal(breakable("modern"), "modern");
  assert.equal(breakable("mcp__big__emit_text"), "mcp__<wbr>big__<wbr>emit_text");
  assert.equal(breakable("/home/dev/.claude/projects/x.jsonl"), "/<wbr>home/<wbr>dev/.<wbr>claude/<wbr>projects/<wbr>x.<wbr>jsonl");
  assert.equal(breakable("a&amp;b/cccccccccccccccccccccccc"), "a&amp;b/<wbr>cccccccccccccccccccccccc", "entities stay whole");
});

test("safeSvg: drops scripts, handlers, links and foreign content; escapes text once; prefixes ids", () => {
  const dirty = [
    '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)" width="10">',
    "<script>alert(2)</script>",
    "<foreignObject><div>html</div></foreignObject>",
    '<a href="https://example.com"><text>link</text></a>',
    '<image href="http://example.com/x.png"/>',
    '<defs><clipPath id="clip1"><rect width="5"/></clipPath></defs>',
    '<g clip-path="url(#clip1)" fill="url(http://example.com/p)" style="fill:red"><text aria-label="a &amp; &lt;b&gt; &quot;c&quot;">x &amp; &lt;y&gt; &#39;z&#39;</text></g>',
    "</svg>",
  ].join("");
  const clean = safeSvg(dirty, "c1-");
  assert.doesNotMatch(clean, /script|alert|onload|foreignObject|href|example\.com|<image|<a[ >]|link/);
  assert.match(clean, /<clipPath id="c1-clip1">/);
  assert.match(clean, /<g clip-path="url\(#c1-clip1\)" style="fill:red">/, "the remote fill is dropped, the local clip kept");
  assert.match(clean, /aria-label="a &amp; &lt;b&gt; &quot;c&quot;">x &amp; &lt;y&gt; &#39;z&#39;<\/text>/);
  assert.throws(() => safeSvg("<svg><g></svg>", "p"), /unbalanced/);
  assert.throws(() => safeSvg("<svg><!-- c --></svg>", "p"), /unexpected SVG markup/);
  assert.throws(() => safeSvg('<svg a="1" "b"></svg>', "p"), /unexpected SVG markup/);
});

test("html --redact: no full session id in the page, its chart title, aria-labels or <title>", async () => {
  const r = await runCli(["report", "c0ffee00", "--claude-dir", "samples/claude-home", "--redact", "--format", "html"]);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /c0ffee00-1111-4222-8333-444444444444/);
  assert.match(r.stdout, /<title>Session report — c0ffee00…<\/title>/);
  const req = await runCli(["requests", "samples/basic/11111111-2222-4333-8444-555555555555.jsonl", "--redact", "--format", "html"]);
  assert.equal(req.code, 0, req.stderr);
  assert.match(req.stdout, /<svg /, "the requests page carries its chart");
  assert.doesNotMatch(req.stdout, /11111111-2222-4333-8444-555555555555/);
  assert.match(req.stdout, /aria-label="Title text &#39;Token growth per request — session 11111111&#39;"/);
});

test("--chart FILE --redact: the SVG file is redacted like the document", async () => {
  const out = join(mkdtempSync(join(tmpdir(), "ccf-redact-chart-")), "growth.svg");
  const r = await runCli(["requests", "2a2a2a2a", "--claude-dir", sample("subagents", "claude"), "--chart", out, "--redact"]);
  assert.equal(r.code, 0, r.stderr);
  const svg = readFileSync(out, "utf8");
  assert.match(svg, /^<svg /);
  assert.doesNotMatch(svg, /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/, "a full session id in the SVG");
  assert.match(svg, /session 2a2a2a2a/);
});

test("every format choice includes html; empty input is an empty page, exit 0", async () => {
  const r = await runCli(["requests", "-", "--format", "html"], { stdin: "" });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^<!DOCTYPE html>/);
  assert.doesNotMatch(r.stdout, /<svg/, "no chart of nothing");
  for (const args of [
    ["sessions", "--claude-dir", "samples/claude-home"],
    ["inventory", "samples/basic/11111111-2222-4333-8444-555555555555.jsonl"],
    ["demo"],
  ]) {
    const o = await runCli([...args, "--format", "html"]);
    assert.equal(o.code, 0, `${args[0]}: ${o.stderr}`);
    assert.match(o.stdout, /^<!DOCTYPE html>[\s\S]*<table>[\s\S]*<\/html>\n$/, args[0]);
  }
  const bad = await runCli(["requests", "-", "--format", "htm"], { stdin: "" });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /html/);
});

test("html: a chart of more points than MAX_INLINE_POINTS is left out with a note, not drawn", async () => {
  const { MAX_INLINE_POINTS } = await import("../../src/render/html.js");
  const rows = Array.from({ length: MAX_INLINE_POINTS + 1 }, (_, i) => ({ chain: "main", index: i + 1, totalInputTokens: i }));
  const html = await renderHtml({ title: "t", tables: [], charts: [{ title: "big", spec: requestsChartSpec(rows, "big") }], warnings: [] });
  assert.doesNotMatch(html, /<svg/);
  assert.match(html, /chart “big” left out: 5,001 points \(more than 5,000\); --chart FILE\.svg draws it/);
});
