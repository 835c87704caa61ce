import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../helpers.js";
import { HTML_CASES } from "../html-cases.js";
import { HTML_CSP } from "../../src/render/html.js";
import { decodeEntities } from "../../src/render/svg-safe.js";
import { chromium, findChromium, limiter } from "./chromium.js";

/*
 * Each HTML golden in a real browser. Two kinds of run:
 *  1. the shipped page as is, `--dump-dom`: no script of ours, so what the DOM holds after load is what a
 *     reader gets; every table and heading must be there, and a script planted in a copy must not run;
 *  2. layout, measured from outside the shipped page: the page's CSP forbids scripts (that is the
 *     point), so the test writes a copy whose CSP also admits one nonce'd script, appended at the end of
 *     <body>. It runs after the whole document is parsed, reads the laid-out boxes (getBoundingClientRect
 *     forces layout; the page loads no fonts or images that could change it later) and writes them as
 *     JSON into a <pre> that `--dump-dom` hands back. Everything else in the copy is byte-identical.
 *     A screenshot cannot tell this: it is clipped to the window, and a table box that ran past the edge
 *     would simply be cut off.
 * CCF_SCREENSHOTS=DIR also writes PNGs at both widths, for a person to look at.
 */
const BIN = findChromium();
const CI = process.env.CI === "true";
const skip = BIN === undefined && !CI ? "chromium not installed" : false;
const WIDTHS = [720, 1200];
const gate = limiter(4);
const work = mkdtempSync(join(tmpdir(), "ccf-html-"));

interface Measure {
  innerWidth: number;
  clientWidth: number;
  scrollWidth: number;
  tables: Array<{ title: string | null; inBox: boolean; overflowX: string | null; left: number; right: number; tableWidth: number; boxWidth: number | null }>;
  svgs: Array<{ left: number; right: number }>;
}

const MEASURE = `
const vw = document.documentElement.clientWidth;
const m = { innerWidth: window.innerWidth, clientWidth: vw, scrollWidth: document.documentElement.scrollWidth, tables: [], svgs: [] };
for (const t of document.querySelectorAll("table")) {
  const box = t.closest(".scroll");
  const r = (box || t).getBoundingClientRect();
  m.tables.push({ title: box && box.getAttribute("aria-label"), inBox: !!box, overflowX: box && getComputedStyle(box).overflowX,
    left: r.left, right: r.right, tableWidth: t.getBoundingClientRect().width, boxWidth: box && box.clientWidth });
}
for (const s of document.querySelectorAll("svg")) { const r = s.getBoundingClientRect(); m.svgs.push({ left: r.left, right: r.right }); }
const pre = document.createElement("pre");
pre.id = "ccf-measure";
pre.textContent = JSON.stringify(m);
document.body.append(pre);
`;

function measuringCopy(html: string, name: string): string {
  const csp = `content="${HTML_CSP}"`;
  assert.ok(html.includes(csp), `${name}: the page carries the CSP meta`);
  const copy = html.replace(csp, `content="${HTML_CSP}; script-src 'nonce-ccfmeasure'"`).replace("</body>", `<script nonce="ccfmeasure">${MEASURE}</script>\n</body>`);
  const file = join(work, `${name.replace(/\W/g, "_")}.measure.html`);
  writeFileSync(file, copy);
  return file;
}

function measured(dom: string, name: string): Measure {
  const m = /<pre id="ccf-measure">([^<]*)<\/pre>/.exec(dom);
  assert.ok(m, `${name}: the measuring script ran (no #ccf-measure in the DOM)`);
  return JSON.parse(decodeEntities(m[1]!)) as Measure;
}

const count = (s: string, re: RegExp) => (s.match(re) ?? []).length;
const headings = (html: string) => [...html.matchAll(/<h[1-4]>(.*?)<\/h[1-4]>/g)].map((m) => decodeEntities(m[1]!));

test("browser: the page's CSP stops a script planted in it", { skip }, async () => {
  if (!BIN) assert.fail("chromium not installed and CI=true: CI must install it (.ci/run does: apt-get install -y chromium)");
  const html = readFileSync(join(ROOT, "test", "golden", HTML_CASES[0]!.golden), "utf8");
  const planted = join(work, "planted.html");
  writeFileSync(planted, html.replace("<main>", '<main><script>document.documentElement.setAttribute("data-ran", "yes")</script>'));
  const dom = await gate(() => chromium(BIN, planted, { width: 1200 }));
  assert.match(dom, /<main>/, "the page loaded");
  assert.doesNotMatch(dom, /<html[^>]*data-ran/, "an inline script ran despite the CSP");
});

for (const c of HTML_CASES) {
  test(`browser: ${c.golden} at ${WIDTHS.join(" and ")} px — every table present, none wider than the page`, { skip }, async (t) => {
    if (!BIN) assert.fail("chromium not installed and CI=true: CI must install it (.ci/run does: apt-get install -y chromium)");
    const file = join(ROOT, "test", "golden", c.golden);
    if (!existsSync(file)) assert.fail(`golden file missing: test/golden/${c.golden} (run npm run golden:update and commit it)`);
    const html = readFileSync(file, "utf8");
    assert.doesNotMatch(html, /<script|<link|<iframe|<object|<embed|\ssrc=|\shref=|url\((?!#)/i, "the shipped page loads and runs nothing");
    const tables = count(html, /<table>/g);
    const shots = process.env.CCF_SCREENSHOTS;
    if (shots) mkdirSync(shots, { recursive: true });
    const copy = measuringCopy(html, c.golden);
    const [dom, ...sizes] = await Promise.all([
      gate(() => chromium(BIN, file, { width: 1200 })),
      ...WIDTHS.map((w) => gate(() => chromium(BIN, copy, { width: w }))),
      ...(shots ? WIDTHS.map((w) => gate(() => chromium(BIN, file, { width: w, height: 3000, extra: [`--screenshot=${join(shots, `${c.golden.replace(/\W/g, "_")}-${w}.png`)}`] }))) : []),
    ]);

    // 1. script-free: the DOM the reader gets holds every table and every heading.
    assert.equal(count(dom!, /<table>/g), tables, "tables in the DOM after load");
    const shown = headings(dom!);
    for (const h of headings(html)) assert.ok(shown.includes(h), `heading missing from the DOM: ${h}`);
    assert.doesNotMatch(dom!, /ccf-measure/);

    // 2. layout at each width.
    WIDTHS.forEach((w, i) => {
      const m = measured(sizes[i]!, `${c.golden}@${w}`);
      assert.equal(m.innerWidth, w, "chromium laid the page out at the asked width");
      assert.equal(m.tables.length, tables);
      assert.ok(m.scrollWidth <= m.clientWidth, `${w} px: the page itself scrolls sideways (${m.scrollWidth} > ${m.clientWidth})`);
      for (const b of m.tables) {
        assert.ok(b.inBox && b.overflowX === "auto", `${w} px: table "${b.title}" is not in a scrolling box`);
        assert.ok(b.left >= 0 && b.right <= m.clientWidth + 0.5, `${w} px: table "${b.title}" box spans ${b.left}–${b.right}, wider than the page (${m.clientWidth})`);
      }
      for (const s of m.svgs) assert.ok(s.left >= 0 && s.right <= m.clientWidth + 0.5, `${w} px: a chart spans ${s.left}–${s.right}, wider than the page`);
      const scrolling = m.tables.filter((b) => b.boxWidth !== null && b.tableWidth > b.boxWidth + 1).map((b) => b.title);
      t.diagnostic(`${w} px: ${tables} tables, ${scrolling.length} scroll in their box${scrolling.length ? `: ${scrolling.join("; ")}` : ""}`);
      // At 1,200 px a reader should not have to scroll any table sideways.
      if (w === 1200) assert.deepEqual(scrolling, [], `${w} px: tables wider than their box`);
    });
  });
}
