import type { Column, OutputDocument, Row, Table } from "../report/model.js";
import { cellText, formatValue, shownColumns } from "./cell.js";
import { Clock, seeTimes } from "./markdown-clock.js";
import { hasRows, sentence, statements } from "./empty-tables.js";
import { evidenceLines, type MarkdownEvidence } from "./markdown-evidence.js";
import { ShortIds } from "./markdown-ids.js";
import { blogGrids, type Grid } from "./markdown-layout.js";
import { markdownFormatter } from "./markdown-style.js";
import { mdBlock, mdHeading, mdInline } from "./md-escape.js";
import { displayZone } from "./zone.js";

export type { MarkdownEvidence } from "./markdown-evidence.js";

/**
 * GitHub-flavoured markdown for a blog page or a write-up appendix: at most seven columns a table, times
 * of day with the date and zone in a note, one number style, no empty sections, ids as short prefixes
 * with the full ids in an Evidence list at the end. The headings, bold keys and footers, bullets and
 * quotes are the tool's own markup; every text inside them may come from evidence and goes through
 * md-escape.ts.
 */
export function renderMarkdown(report: OutputDocument, level = 2, evidence?: MarkdownEvidence): string {
  return [...markdownChunks(report, level, evidence)].join("");
}

/** The markdown document a line at a time, so long tables are written as they are formatted. */
export function markdownChunks(report: OutputDocument, level = 2, evidence?: MarkdownEvidence): Generator<string> {
  return joinTrimmed(markdownLines(report, level, evidence));
}

function* markdownLines(report: OutputDocument, level: number, evidence: MarkdownEvidence | undefined): Generator<string> {
  const zone = displayZone();
  const ids = collectIds(report);
  const h = "#".repeat(level);
  // The document's own title names its subject in full, once; everything under it uses the short ids.
  yield `${h} ${mdHeading(report.title)}`;
  yield "";
  if (report.summary?.length) {
    const clock = new Clock(zone);
    const fmt = markdownFormatter(clock);
    for (const [k, v, kind] of report.summary) {
      const value = kind === "time" && typeof v === "string" ? clock.full(v) : formatValue(v, kind ?? "text", "—", fmt);
      yield `- ${bold(mdInline(ids.shorten(k)))}: ${mdInline(ids.shorten(value))}`;
    }
    yield "";
  }
  let section: string | undefined;
  for (const t of report.tables) {
    const shown = hasRows(t);
    const said = shown ? [] : statements(t);
    // An empty table is left out; what its absence means, when it means something, is one sentence.
    if (!shown && said.length === 0) continue;
    if (t.section !== undefined && t.section !== section) yield* [`${"#".repeat(level + 1)} ${mdHeading(ids.shorten(t.section))}`, ""];
    section = t.section;
    const sub = t.section !== undefined ? level + 2 : level + 1;
    if (!shown) {
      if (t.section === undefined) yield* [`${"#".repeat(sub)} ${mdHeading(ids.shorten(t.title))}`, ""];
      for (const s of said) yield* [mdBlock(ids.shorten(sentence(s))), ""];
      continue;
    }
    yield* tableLines(t, sub, ids, zone);
    yield "";
  }
  yield* evidenceLines(level + 1, ids, evidence);
}

/** Every id the document shows, before any line is printed: short names must be unique in the whole of it. */
function collectIds(report: OutputDocument): ShortIds {
  const ids = new ShortIds();
  ids.collect(report.title);
  for (const [k, v] of report.summary ?? []) ids.collect([k, v]);
  for (const t of report.tables) {
    ids.collect([t.title, t.section, t.notes, t.whenEmpty]);
    for (const r of t.rows) ids.collect(r);
    for (const r of t.footer ?? []) ids.collect(r);
  }
  return ids;
}

function* tableLines(t: Table, level: number, ids: ShortIds, zone: string): Generator<string> {
  const clock = new Clock(zone);
  seeTimes(t, clock);
  const fmt = markdownFormatter(clock);
  const cell = (r: Row, c: Column, empty: string) => ids.shorten(cellText(r, c, empty, fmt));
  const grids = blogGrids({ ...shownColumns(t), title: ids.shorten(t.title) }, cell, () => clock.restart());
  for (const [i, g] of grids.entries()) {
    if (i > 0) yield "";
    yield* gridLines(g, level);
  }
  const timeNote = clock.note();
  for (const n of [...(t.notes ?? []), ...(timeNote ? [timeNote] : [])]) yield* ["", `> ${mdBlock(ids.shorten(n))}`];
}

function* gridLines(g: Grid, level: number): Generator<string> {
  yield `${"#".repeat(level)} ${mdHeading(g.title)}`;
  yield "";
  const boldFrom = g.header.length - g.boldColumns;
  yield `| ${g.header.map((c) => mdInline(c)).join(" | ")} |`;
  yield `|${g.align.map((a) => (a === "right" ? "---:" : "---")).join("|")}|`;
  for (const r of g.body()) yield `| ${r.map((c, i) => (i >= boldFrom ? bold(mdInline(c)) : mdInline(c))).join(" | ")} |`;
  for (const r of g.footer()) yield `| ${r.map((c) => bold(mdInline(c))).join(" | ")} |`;
}

/**
 * Lines joined by "\n", then the end trimmed and one "\n" added, as `${lines.join("\n").trimEnd()}\n`
 * would: only the last non-blank line and the blank ones after it are held back.
 */
function* joinTrimmed(lines: Iterable<string>): Generator<string> {
  let held = "";
  let first = true;
  for (const l of lines) {
    const piece = first ? l : `\n${l}`;
    first = false;
    if (/\S/.test(piece)) {
      if (held !== "") yield held;
      held = piece;
    } else {
      held += piece;
    }
  }
  yield `${held.trimEnd()}\n`;
}

/** Strong emphasis does not open or close next to white space: the text goes in trimmed. */
function bold(s: string): string {
  const t = s.trim();
  return t === "" ? t : `**${t}**`;
}
