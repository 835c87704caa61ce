import type { OutputDocument, Table } from "../report/model.js";
import { cellText, formatValue } from "./cell.js";
import { alignOf } from "./kinds.js";
import { mdBlock, mdHeading, mdInline } from "./md-escape.js";

/**
 * GitHub-flavoured markdown, thousands separators, ready to paste into a write-up. The headings, bold
 * keys and footers, bullets and quotes are the tool's own markup; every text inside them may come from
 * evidence and goes through md-escape.ts.
 */
export function renderMarkdown(report: OutputDocument, level = 2): string {
  return [...markdownChunks(report, level)].join("");
}

/** The markdown document a line at a time, so long tables are written as they are formatted. */
export function markdownChunks(report: OutputDocument, level = 2): Generator<string> {
  return joinTrimmed(markdownLines(report, level));
}

function* markdownLines(report: OutputDocument, level: number): Generator<string> {
  const h = "#".repeat(level);
  yield `${h} ${mdHeading(report.title)}`;
  yield "";
  if (report.summary?.length) {
    for (const [k, v, kind] of report.summary) yield `- ${bold(mdInline(k))}: ${mdInline(formatValue(v, kind ?? "text", "—"))}`;
    yield "";
  }
  let section: string | undefined;
  for (const t of report.tables) {
    if (t.section !== undefined && t.section !== section) yield* [`${"#".repeat(level + 1)} ${mdHeading(t.section)}`, ""];
    section = t.section;
    yield* tableLines(t, t.section !== undefined ? level + 2 : level + 1);
    yield "";
  }
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

export function renderTable(t: Table, level: number): string {
  return [...tableLines(t, level)].join("\n");
}

function* tableLines(t: Table, level: number): Generator<string> {
  yield `${"#".repeat(level)} ${mdHeading(t.title)}`;
  yield "";
  if (t.rows.length === 0 && !t.footer?.length) {
    yield "_(none)_";
  } else {
    yield `| ${t.columns.map((c) => mdInline(c.header)).join(" | ")} |`;
    yield `|${t.columns.map((c) => (alignOf(c) === "right" ? "---:" : "---")).join("|")}|`;
    for (const r of t.rows) yield `| ${t.columns.map((c) => mdInline(cellText(r, c, "—"))).join(" | ")} |`;
    for (const r of t.footer ?? []) yield `| ${t.columns.map((c) => bold(mdInline(cellText(r, c, "")))).join(" | ")} |`;
  }
  for (const n of t.notes ?? []) yield* ["", `> ${mdBlock(n)}`];
}

/** Strong emphasis does not open or close next to white space: the text goes in trimmed. */
function bold(s: string): string {
  const t = s.trim();
  return t === "" ? t : `**${t}**`;
}
