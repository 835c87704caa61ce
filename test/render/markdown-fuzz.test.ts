import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { renderMarkdown } from "../../src/render/markdown.js";
import { sanitize } from "../../src/render/sanitize.js";
import { col, type OutputDocument } from "../../src/report/model.js";
import { assertOwnMarkupOnly, norm, tags, toHtml, visibleText } from "./html-check.js";

/** Pieces that mean something to CommonMark, GFM or linkify, glued in any order. */
const PIECES = [
  "<",
  ">",
  "&",
  "#",
  "*",
  "_",
  "~",
  "`",
  "``",
  "|",
  "\\",
  "[",
  "]",
  "(",
  ")",
  "!",
  "-",
  "+",
  "=",
  ":",
  "/",
  "//",
  ".",
  "@",
  "$",
  ";",
  " ",
  "  ",
  "    ",
  "\t",
  "\n",
  "\r\n",
  "\u2028",
  "1.",
  "2)",
  "a",
  "b1",
  "x_y",
  "img",
  "script",
  "src=",
  "onerror=",
  "href=",
  "http",
  "https",
  "www",
  "mailto",
  "evil",
  "example",
  "com",
  "co",
  "uk",
  ".org",
  "xn--p1ai",
  "рф",
  "&lt;",
  "&#60;",
  "&amp;",
  "<!--",
  "-->",
  "<?",
  "<![CDATA[",
  "</",
  "javascript",
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 14 }).map((a) => a.join(""));

function report(where: "title" | "cell" | "note" | "key" | "footer", s: string): OutputDocument {
  const v = (p: string) => (p === where ? s : "plain");
  return {
    title: v("title"),
    summary: [[v("key"), "value"]],
    tables: [
      {
        id: "t",
        title: "t",
        columns: [col("a", "a"), col("n", "n", "int")],
        rows: [{ a: v("cell"), n: 1 }],
        footer: [{ a: v("footer"), n: 2 }],
        notes: [v("note")],
      },
    ],
    warnings: [],
  };
}

test("fuzz: any mix of markup pieces in a title, key, cell, footer or note renders as that text and nothing else", () => {
  for (const where of ["title", "cell", "note", "key", "footer"] as const) {
    const plain = tags(toHtml(renderMarkdown(report(where, "plain"))));
    fc.assert(
      fc.property(text, (s) => {
        // Text that is only white space or escapes nothing visible: the element may legitimately be empty.
        fc.pre(norm(sanitize(s)) !== "");
        const html = toHtml(renderMarkdown(report(where, s)));
        assertOwnMarkupOnly(html, where);
        assert.deepEqual(tags(html), plain, `${where} ← ${JSON.stringify(s)}\n${html}`);
        assert.ok(visibleText(html).includes(norm(sanitize(s))), `${where} ← ${JSON.stringify(s)}\n${html}`);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 600), seed: Number(process.env.FUZZ_SEED ?? 9) },
    );
  }
});
