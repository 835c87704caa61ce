import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers.js";
import { HTML_CASES } from "../html-cases.js";
import { decodeEntities } from "../../src/render/svg-safe.js";
import { Browser, chromium, findChromium, limiter } from "./chromium.js";

/*
 * Each HTML golden in a real browser, the shipped file unchanged:
 *  1. script-free: `chromium --dump-dom` on the page; what the DOM holds after load is what a reader
 *     gets, so every table and heading must be in it;
 *  2. layout, measured from outside: the page's CSP forbids scripts (that is the point), so nothing
 *     inside it can measure. One chromium driven over the DevTools protocol (a pipe, no port) opens
 *     the page at 720 and 1,200 px and evaluates a measuring expression through the protocol, which
 *     the page's CSP does not govern; it reads the laid-out boxes after the load event (the page loads
 *     no fonts or images that could change them later). A screenshot could not tell this: it is
 *     clipped to the window, and a table box that ran past the edge would just be cut off;
 *  3. a script planted in the live page through the DOM must be refused by the page's own CSP.
 * CCF_SCREENSHOTS=DIR also writes PNGs at both widths, for a person to look at.
 */
const BIN = findChromium();
const CI = process.env.CI === "true";
const skip = BIN === undefined && !CI ? "chromium not installed" : false;
const MISSING = "chromium not installed and CI=true: CI must install it (.ci/run does: apt-get install -y chromium)";
const WIDTHS = [720, 1200];
const gate = limiter(3);
let browser: Browser | undefined;

before(() => {
  if (BIN) browser = Browser.launch(BIN);
});
after(async () => {
  await browser?.close();
});

interface Measure {
  innerWidth: number;
  clientWidth: number;
  scrollWidth: number;
  tables: Array<{
    title: string | null;
    inBox: boolean;
    overflowX: string | null;
    left: number;
    right: number;
    tableWidth: number;
    boxWidth: number | null;
  }>;
  svgs: Array<{ left: number; right: number }>;
}

const MEASURE = `(() => {
  const m = { innerWidth: window.innerWidth, clientWidth: document.documentElement.clientWidth, scrollWidth: document.documentElement.scrollWidth, tables: [], svgs: [] };
  for (const t of document.querySelectorAll("table")) {
    const box = t.closest(".scroll");
    const r = (box || t).getBoundingClientRect();
    m.tables.push({ title: box && box.getAttribute("aria-label"), inBox: !!box, overflowX: box && getComputedStyle(box).overflowX,
      left: r.left, right: r.right, tableWidth: t.getBoundingClientRect().width, boxWidth: box && box.clientWidth });
  }
  for (const s of document.querySelectorAll("svg")) { const r = s.getBoundingClientRect(); m.svgs.push({ left: r.left, right: r.right }); }
  return m;
})()`;

const PLANT = `(() => {
  const s = document.createElement("script");
  s.textContent = "document.documentElement.dataset.ran = 'yes'";
  document.body.append(s);
  return document.documentElement.dataset.ran ?? "blocked";
})()`;

const count = (s: string, re: RegExp) => (s.match(re) ?? []).length;
const headings = (html: string) => [...html.matchAll(/<h[1-4]>(.*?)<\/h[1-4]>/g)].map((m) => decodeEntities(m[1]!));

for (const c of HTML_CASES) {
  test(`browser: ${c.golden} at ${WIDTHS.join(" and ")} px — every table present, none wider than the page`, { skip }, async (t) => {
    if (!BIN || !browser) assert.fail(MISSING);
    const b = browser;
    const file = join(ROOT, "test", "golden", c.golden);
    if (!existsSync(file)) assert.fail(`golden file missing: test/golden/${c.golden} (run npm run golden:update and commit it)`);
    const html = readFileSync(file, "utf8");
    assert.doesNotMatch(html, /<script|<link|<iframe|<object|<embed|\ssrc=|\shref=|url\((?!#)/i, "the shipped page loads and runs nothing");
    const tables = count(html, /<table>/g);
    const shots = process.env.CCF_SCREENSHOTS;
    if (shots) mkdirSync(shots, { recursive: true });
    const [domOut, ...sizes] = await Promise.all([
      gate(() => chromium(BIN, file, { width: 1200 })),
      ...WIDTHS.map((w) => b.evaluate(file, w, MEASURE) as Promise<Measure>),
      ...(shots
        ? WIDTHS.map((w) =>
            gate(() =>
              chromium(BIN, file, {
                width: w,
                height: 3000,
                extra: [`--screenshot=${join(shots, `${c.golden.replace(/\W/g, "_")}-${w}.png`)}`],
              }),
            ),
          )
        : []),
    ]);

    // 1. script-free: the DOM the reader gets holds every table and every heading.
    const dom = domOut as string;
    assert.equal(count(dom, /<table>/g), tables, "tables in the DOM after load");
    const shown = headings(dom);
    for (const h of headings(html)) assert.ok(shown.includes(h), `heading missing from the DOM: ${h}`);
    assert.doesNotMatch(dom, /data-ran/);

    // 2. layout at each width.
    WIDTHS.forEach((w, i) => {
      const m = sizes[i] as Measure;
      assert.equal(m.innerWidth, w, "chromium laid the page out at the asked width");
      assert.equal(m.tables.length, tables);
      assert.ok(m.scrollWidth <= m.clientWidth, `${w} px: the page itself scrolls sideways (${m.scrollWidth} > ${m.clientWidth})`);
      for (const b of m.tables) {
        assert.ok(b.inBox && b.overflowX === "auto", `${w} px: table "${b.title}" is not in a scrolling box`);
        assert.ok(
          b.left >= 0 && b.right <= m.clientWidth + 0.5,
          `${w} px: table "${b.title}" box spans ${b.left}–${b.right}, wider than the page (${m.clientWidth})`,
        );
      }
      for (const s of m.svgs)
        assert.ok(s.left >= 0 && s.right <= m.clientWidth + 0.5, `${w} px: a chart spans ${s.left}–${s.right}, wider than the page`);
      const scrolling = m.tables.filter((b) => b.boxWidth !== null && b.tableWidth > b.boxWidth + 1).map((b) => b.title);
      t.diagnostic(
        `${w} px: ${tables} tables, ${scrolling.length} scroll in their box${scrolling.length ? `: ${scrolling.join("; ")}` : ""}`,
      );
      // At 1,200 px a reader should not have to scroll any table sideways.
      if (w === 1200) assert.deepEqual(scrolling, [], `${w} px: tables wider than their box`);
    });

    // 3. the CSP as shipped refuses a script added to the live page.
    assert.equal(await b.evaluate(file, 1200, PLANT), "blocked", "a script planted in the page ran despite its CSP");
  });
}
