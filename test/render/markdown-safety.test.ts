import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers.js";
import { renderMarkdown } from "../../src/render/markdown.js";
import { sanitize } from "../../src/render/sanitize.js";
import { col, type OutputDocument } from "../../src/report/model.js";
import { HOSTILE } from "./hostile.js";
import { assertOwnMarkupOnly, norm, tags, toHtml, visibleText } from "./html-check.js";

const POSITIONS = [
  "title",
  "summary key",
  "summary value",
  "section",
  "table title",
  "header",
  "text cell",
  "number cell",
  "time cell",
  "list cell",
  "footer",
  "note",
  "second note",
] as const;
type Position = (typeof POSITIONS)[number];

/** A report with `text` in one position and plain words everywhere else. */
function reportWith(pos: Position, text: string): OutputDocument {
  const v = (p: Position) => (p === pos ? text : `plain ${p}`);
  return {
    title: v("title"),
    summary: [
      [v("summary key"), v("summary value")],
      ["requests", 3, "int"],
    ],
    tables: [
      {
        id: "t",
        title: v("table title"),
        section: v("section"),
        columns: [
          col("name", v("header")),
          col("n", "n", "int"),
          col("when", "when", "time"),
          col("list", "list"),
          col("size", "size", "bytes"),
        ],
        rows: [
          { name: v("text cell"), n: pos === "number cell" ? text : -5, when: v("time cell"), list: ["first", v("list cell")], size: 2048 },
        ],
        footer: [{ name: v("footer"), n: 10 }],
        notes: [v("note"), v("second note")],
      },
      { id: "e", title: "empty", columns: [col("x", "x")], rows: [], section: v("section") },
    ],
    warnings: [],
  };
}

test("hostile evidence in every position renders as text: same page structure as plain words, no element or attribute of its own", () => {
  let cases = 0;
  for (const pos of POSITIONS) {
    const plain = tags(toHtml(renderMarkdown(reportWith(pos, `plain ${pos}`))));
    for (const h of HOSTILE) {
      const where = `${pos} ← ${JSON.stringify(h)}`;
      const html = toHtml(renderMarkdown(reportWith(pos, h)));
      assertOwnMarkupOnly(html, where);
      assert.deepEqual(tags(html), plain, `${where}: the page structure changed\n${html}`);
      assert.ok(visibleText(html).includes(norm(sanitize(h))), `${where}: not visible as written\n${html}`);
      cases++;
    }
  }
  assert.equal(cases, POSITIONS.length * HOSTILE.length);
});

test("every markdown golden renders with the tool's own elements only", () => {
  const dir = join(ROOT, "test", "golden");
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".md"));
  assert.ok(files.length >= 6, `found ${files.length} markdown goldens`);
  for (const f of files) {
    // The golden helper writes this checkout's path as `<repo>`; the real output had the path.
    const html = toHtml(readFileSync(join(dir, f), "utf8").split("<repo>").join(ROOT));
    assertOwnMarkupOnly(html, f);
    assert.match(html, /<table>/, f);
  }
});

test("the tool's own markup stays markup and numbers read as they are", () => {
  const html = toHtml(renderMarkdown(reportWith("text cell", "plain")));
  assert.match(html, /<h2>plain title<\/h2>/);
  assert.match(html, /<li><strong>plain summary key<\/strong>: plain summary value<\/li>/);
  assert.match(html, /<td style="text-align:right"><strong>10<\/strong><\/td>/);
  assert.match(html, /<blockquote>\n<p>plain note<\/p>/);
  // The empty table is left out, heading and all: a blog page has no empty sections.
  assert.doesNotMatch(html, /\(none\)|<h4>empty<\/h4>/);
  const md = renderMarkdown(reportWith("text cell", "x"));
  assert.match(md, /\| -5 \| /);
  assert.match(md, /\| 2KB \|/);
});
