import { test } from "node:test";
import assert from "node:assert/strict";
import MarkdownIt from "markdown-it";
import { runCli } from "../helpers.js";
import { SAMPLE_COMMANDS } from "./sample-commands.js";

const md = new MarkdownIt();
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const LONG_ID = /\b(?:srvtoolu|toolu|msg|req)_[A-Za-z0-9]{16,}/g;

/** The number forms a blog page must not show: raw milliseconds, 6-decimal money, unseparated changes, exponents. */
const BAD_NUMBERS: Array<[string, RegExp]> = [
  ["milliseconds without separators", /(?<![\d,.])\d{4,} ms\b/],
  ["money past 4 decimals", /\$\d+\.\d{5,}/],
  ["a change without separators", /(?<![\d,.])\d{4,} →|→ \d{4,}(?![\d,])/],
  ["an exponent", /(?<![\w.-])\d(?:\.\d+)?e[+-]\d+\b/],
];

interface Doc {
  tables: Array<{ header: string[]; rows: string[][] }>;
  headings: Array<{ level: number; text: string; contentAfter: boolean }>;
  evidence: string[];
}

/** Tables, headings (with whether anything but a deeper heading follows), and the Evidence list's items, from markdown-it's tokens. */
function read(text: string): Doc {
  const tokens = md.parse(text, {});
  const doc: Doc = { tables: [], headings: [], evidence: [] };
  let row: string[] | undefined;
  let inHead = false;
  let inEvidence = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type === "heading_open") {
      const level = Number(t.tag.slice(1));
      const textOf = tokens[i + 1]!.content;
      inEvidence = textOf === "Evidence";
      // Content follows unless the next block is a heading at this level or above (or nothing).
      const next = tokens.slice(i + 3).find((x) => x.type !== "heading_close");
      const contentAfter = next !== undefined && !(next.type === "heading_open" && Number(next.tag.slice(1)) <= level);
      doc.headings.push({ level, text: textOf, contentAfter });
    } else if (t.type === "table_open") doc.tables.push({ header: [], rows: [] });
    else if (t.type === "thead_open") inHead = true;
    else if (t.type === "thead_close") inHead = false;
    else if (t.type === "tr_open") row = [];
    else if ((t.type === "th_open" || t.type === "td_open") && row)
      row.push(tokens[i + 1]!.type === "inline" ? tokens[i + 1]!.content : "");
    else if (t.type === "tr_close" && row) {
      const table = doc.tables[doc.tables.length - 1]!;
      if (inHead) table.header = row;
      else table.rows.push(row);
      row = undefined;
    } else if (t.type === "inline" && inEvidence && tokens[i - 1]?.type === "paragraph_open" && tokens[i - 2]?.type === "list_item_open")
      doc.evidence.push(t.content);
  }
  return doc;
}

/** A UUID that no prefix can tell from another one of the document (they differ in the last character only) stays whole. */
function unshortenable(text: string): Set<string> {
  const all = [...new Set(text.match(UUID) ?? [])];
  return new Set(all.filter((a) => all.some((b) => b !== a && b.slice(0, 35) === a.slice(0, 35))));
}

function check(args: string[], text: string): number {
  const where = args.join(" ");
  const doc = read(text);
  const whole = unshortenable(text);
  let cells = 0;
  assert.ok(doc.tables.length > 0, `${where}: has tables`);
  for (const t of doc.tables) {
    assert.ok(t.header.length <= 7, `${where}: a table of ${t.header.length} columns: ${t.header.join(" | ")}`);
    for (const r of [t.header, ...t.rows]) {
      assert.ok(r.length <= 7, `${where}: a row of ${r.length} cells`);
      for (const c of r) {
        cells++;
        for (const id of c.match(UUID) ?? []) assert.ok(whole.has(id), `${where}: full id ${id} in a table cell: ${c}`);
        assert.doesNotMatch(c, LONG_ID, `${where}: full id in a table cell`);
        assert.doesNotMatch(c, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/, `${where}: a whole ISO time in a row: ${c}`);
      }
    }
  }
  for (const h of doc.headings) assert.ok(h.contentAfter, `${where}: empty section "${h.text}"`);
  assert.doesNotMatch(text, /\(none\)_?\n/, `${where}: an empty table`);
  for (const [what, re] of BAD_NUMBERS) assert.doesNotMatch(text, re, `${where}: ${what}`);
  // Every short id the tables show is listed in full at the end.
  const listed = doc.evidence.map((e) => /^(\S+…) — (?:(?:session|tool use|message|request) )?(\S+)$/.exec(e)).filter((m) => m !== null);
  for (const short of new Set(text.split("## Evidence")[0]!.match(/\b[0-9a-f]{8}[0-9a-f-]*…|\b(?:toolu|msg|req)_[A-Za-z0-9]+…/g) ?? [])) {
    const m = listed.find((l) => l[1] === short);
    assert.ok(m, `${where}: ${short} is not in the Evidence list`);
    assert.ok(m[2]!.startsWith(short.slice(0, -1)), `${where}: ${short} listed as ${m[2]}`);
  }
  assert.equal(doc.headings[doc.headings.length - 1]?.text, "Evidence", `${where}: the Evidence list ends the document`);
  return cells;
}

test("markdown of every command on the samples: ≤7 columns, no empty section, short ids with the full ones in Evidence, one number style", async () => {
  let cells = 0;
  for (const args of SAMPLE_COMMANDS) {
    const r = await runCli([...args, "--format", "markdown"]);
    assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
    cells += check(args, r.stdout);
  }
  assert.ok(cells > 1000, `checked ${cells} cells`);
});

test("markdown with --redact: the Evidence list names no home directory and no full id either", async () => {
  const r = await runCli(["demo", "--format", "markdown", "--redact"]);
  assert.equal(r.code, 0, r.stderr);
  const evidence = r.stdout.slice(r.stdout.indexOf("### Evidence"));
  assert.match(evidence, /Files read \(\d+\):/);
  assert.doesNotMatch(r.stdout, UUID);
  assert.doesNotMatch(r.stdout, LONG_ID);
  assert.doesNotMatch(r.stdout, /\/home\/|\/Users\//);
  assert.match(evidence, /- transcript: ~?.*c0ffee00….*\.jsonl/);
});

test("--tz moves the times of day and names the zone once under each table; JSON keeps ISO UTC", async () => {
  const args = ["requests", "2a2a2a2a", "--claude-dir", "samples/subagents/claude", "--format", "markdown"];
  const utc = await runCli(args);
  const ny = await runCli([...args, "--tz", "America/New_York"]);
  // Two dates in the main chain: the date shows on the first row and where it changes.
  assert.match(utc.stdout, /\| 1 \| 2026-03-12 14:02:14 \|[^\n]*\n\| 2 \| 14:02:27 \|[^\n]*\n\| 3 \| 2026-08-24 08:30:02 \|/);
  assert.match(utc.stdout, /> times: UTC, 2026-03-12 to 2026-08-24; the date is shown where it changes/);
  assert.match(ny.stdout, /\| 1 \| 2026-03-12 10:02:14 \|/);
  assert.match(ny.stdout, /> times: America\/New_York \(UTC-04:00\), 2026-03-12 to 2026-08-24/);
});
