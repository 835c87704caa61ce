import { test } from "node:test";
import assert from "node:assert/strict";
import { renderCsv } from "../../src/render/csv.js";
import { col, type OutputDocument } from "../../src/report/model.js";

const one = (rows: Array<Record<string, unknown>>): OutputDocument => ({
  title: "t",
  tables: [{ id: "t", title: "t", columns: [col("name", "name"), col("n", "n", "int")], rows }],
  warnings: [],
});

test("CSV: a text cell a spreadsheet would run as a formula gets a leading quote; numbers stay numbers", () => {
  const csv = renderCsv(
    one([
      { name: '=HYPERLINK("http://evil.example","click")', n: -5 },
      { name: "+1+2", n: -0.5 },
      { name: "-2+3", n: 0 },
      { name: "@SUM(A1)", n: 1e21 },
      { name: "\uff1d1", n: 7 },
      { name: "-5", n: null },
      { name: "a=b", n: 12 },
    ]),
  );
  assert.equal(
    csv,
    [
      "name,n",
      `"'=HYPERLINK(""http://evil.example"",""click"")",-5`,
      "'+1+2,-0.5",
      "'-2+3,0",
      "'@SUM(A1),1e+21",
      "'\uff1d1,7",
      "'-5,",
      "a=b,12",
      "",
    ].join("\r\n"),
  );
});

test("CSV: tab and CR never start a cell raw (they show as \\t, \\r), and line breaks stay inside one record", () => {
  const csv = renderCsv(
    one([
      { name: "\tcmd", n: 1 },
      { name: "\r=1", n: 2 },
      { name: "a\nb", n: 3 },
      { name: "l\u200bab\u2028", n: 4 },
    ]),
  );
  assert.equal(csv, "name,n\r\n\\tcmd,1\r\n\\r=1,2\r\na\\nb,3\r\nl\\u200bab\\u2028,4\r\n");
});

test("CSV: several tables keep the layout: a table column, a blank line between, CRLF, quoting per RFC 4180", () => {
  const r: OutputDocument = {
    title: "t",
    tables: [
      {
        id: "a",
        title: "A",
        columns: [col("x", "x"), col("ok", "ok", "bool"), col("list", "list")],
        rows: [{ x: 'say "hi", then', ok: true, list: ["p", "q"] }],
        footer: [{ x: "total", ok: false }],
      },
      { id: "b", title: "B", columns: [col("y", "y", "int")], rows: [{ y: 1 }] },
    ],
    warnings: [],
  };
  assert.equal(renderCsv(r), 'table,x,ok,list\r\na,"say ""hi"", then",true,p; q\r\na,total,false,\r\n\r\ntable,y\r\nb,1\r\n');
  assert.equal(renderCsv({ title: "t", tables: [], warnings: [] }), "");
});

test("CSV: a table with no rows is left out (no header-only block), and the table column stays: it depends on the document's tables, not on which have rows", () => {
  const main = { id: "requests:main", title: "Requests", columns: [col("index", "index", "int")], rows: [{ index: 1 }] };
  const health = {
    id: "health",
    title: "Parse health",
    columns: [col("file", "file"), col("line", "line", "int")],
    rows: [],
    notes: ["0 malformed"],
  };
  const statement = { id: "note", title: "Note", columns: [], rows: [], notes: ["no debug log"] };
  const doc = (tables: OutputDocument["tables"]): OutputDocument => ({ title: "t", tables, warnings: [] });
  // One table with rows, the others empty: only it is written, still with the table column.
  assert.equal(renderCsv(doc([main, statement, health])), "table,index\r\nrequests:main,1\r\n");
  // Health with rows too: the same columns for the main table, then health's block.
  const bad = { ...health, rows: [{ file: "a.jsonl", line: 3 }] };
  assert.equal(renderCsv(doc([main, statement, bad])), "table,index\r\nrequests:main,1\r\n\r\ntable,file,line\r\nhealth,a.jsonl,3\r\n");
  // Every table empty: the first with columns is its header alone, so the document is never empty.
  assert.equal(renderCsv(doc([statement, health, { ...main, rows: [] }])), "table,file,line\r\n");
  // Parse health as the only table with columns (requests on an empty input): still a multi-table document.
  assert.equal(renderCsv(doc([statement, health])), "table,file,line\r\n");
  // A footer alone keeps a table.
  assert.equal(renderCsv(doc([{ ...main, rows: [], footer: [{ index: 2 }] }, health])), "table,index\r\nrequests:main,2\r\n");
  // A one-table document never has the column, with rows or without.
  assert.equal(renderCsv(doc([main])), "index\r\n1\r\n");
  assert.equal(renderCsv(doc([{ ...main, rows: [] }])), "index\r\n");
});

/** Characters no output may carry raw (CSV's own CRLF aside): ESC, BEL, CSI (U+009B), NEL (U+0085), RLO, ZWSP, the line separator. */
const RAW_UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b\u202e\u2028]/;
const HOSTILE = "\u001b[31mred\u0007\u009b\u0085\u202e\u200b\u2028x";

test("CSV: the table column and the header are escaped as cells are, formulas guarded: a table id can hold an evidence name", () => {
  const csv = renderCsv({
    title: "t",
    tables: [
      { id: `requests:${HOSTILE}`, title: "A", columns: [col("x", "x", "int")], rows: [{ x: 1 }], footer: [{ x: 2 }] },
      {
        id: `=HYPERLINK("http://evil.example")${HOSTILE}`,
        title: "B",
        columns: [col(`@k${HOSTILE}`, "k"), col("-n", "n", "int")],
        rows: [{ [`@k${HOSTILE}`]: "v", "-n": -5 }],
      },
      { id: "+1", title: "C", columns: [col("y", "y", "int")], rows: [{ y: 3 }] },
    ],
    warnings: [],
  });
  assert.doesNotMatch(csv, RAW_UNSAFE);
  const esc = "\\x1b[31mred\\x07\\x9b\\x85\\u202e\\u200b\\u2028x";
  assert.equal(
    csv,
    [
      "table,x",
      `requests:${esc},1`,
      `requests:${esc},2`,
      "",
      `table,'@k${esc},'-n`,
      `"'=HYPERLINK(""http://evil.example"")${esc}",v,-5`,
      "",
      "table,y",
      "'+1,3",
      "",
    ].join("\r\n"),
  );
});

test("a column's display field: the human formats show the shortened text, CSV writes the key's whole text", async () => {
  const { renderMarkdown } = await import("../../src/render/markdown.js");
  const { renderTerminal } = await import("../../src/render/table.js");
  const { plain } = await import("../../src/render/palette.js");
  const whole = `=cmd ${"z".repeat(100)}`;
  const doc: OutputDocument = {
    title: "t",
    tables: [
      {
        id: "findings",
        title: "Findings",
        columns: [col("finding", "finding", "text", { display: "shown" })],
        rows: [{ finding: whole, shown: "=cmd zzz…" }, { finding: "plain" }],
      },
    ],
    warnings: [],
  };
  assert.equal(renderCsv(doc), `finding\r\n'${whole}\r\nplain\r\n`);
  const md = renderMarkdown(doc);
  assert.match(md, /\| =cmd zzz… \|/);
  assert.match(md, /\| plain \|/);
  assert.doesNotMatch(md, /z{10}/);
  const term = renderTerminal(doc, plain, { width: 200 });
  // A one-column table prints as a list in the terminal.
  assert.match(term, /^- =cmd zzz…$/m);
  assert.doesNotMatch(term, /z{10}/);
});
