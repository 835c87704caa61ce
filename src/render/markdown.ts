import type { Report, Table } from "../report/model.js";
import { formatValue } from "./values.js";
import { sanitize } from "./sanitize.js";

const NUMERIC = new Set(["int", "signed", "bytes", "ms", "ratio", "usd"]);

/** GitHub-flavoured markdown, thousands separators, ready to paste into a write-up. */
export function renderMarkdown(report: Report, level = 2): string {
  return [...markdownChunks(report, level)].join("");
}

/** The markdown document a line at a time, so long tables are written as they are formatted. */
export function markdownChunks(report: Report, level = 2): Generator<string> {
  return joinTrimmed(markdownLines(report, level));
}

function* markdownLines(report: Report, level: number): Generator<string> {
  const h = "#".repeat(level);
  yield `${h} ${mdText(report.title)}`;
  yield "";
  if (report.summary?.length) {
    for (const [k, v, kind] of report.summary) yield `- **${mdText(k)}**: ${mdCell(formatValue(v, kind ?? "text", "—"))}`;
    yield "";
  }
  let section: string | undefined;
  for (const t of report.tables) {
    if (t.section !== undefined && t.section !== section) yield* [`${"#".repeat(level + 1)} ${mdText(t.section)}`, ""];
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
  yield `${"#".repeat(level)} ${mdText(t.title)}`;
  yield "";
  if (t.rows.length === 0 && !t.footer?.length) {
    yield "_(none)_";
  } else {
    yield `| ${t.columns.map((c) => mdCell(c.header)).join(" | ")} |`;
    yield `|${t.columns.map((c) => (NUMERIC.has(c.kind) ? "---:" : "---")).join("|")}|`;
    for (const r of t.rows) yield `| ${t.columns.map((c) => mdCell(formatValue(r[c.key], c.kind, "—"))).join(" | ")} |`;
    for (const r of t.footer ?? []) yield `| ${t.columns.map((c) => bold(mdCell(formatValue(r[c.key], c.kind, "")))).join(" | ")} |`;
  }
  for (const n of t.notes ?? []) yield* ["", `> ${mdText(n)}`];
}

const bold = (s: string) => (s === "" ? s : `**${s}**`);

/** Pipes would break a table cell; values are already sanitised by formatValue. */
function mdCell(s: string): string {
  return noHtml(s.replace(/\\\|/g, "|").replace(/\|/g, "\\|"));
}

function mdText(s: string): string {
  return noHtml(sanitize(s));
}

/**
 * Evidence is full of tag-like text (`<system-reminder>`, `<persisted-output>`) that a markdown renderer
 * would take for HTML and drop. Outside code spans `<` and `>` are written as entities.
 */
export function noHtml(s: string): string {
  if (!/[<>]/.test(s)) return s;
  return s
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/</g, "&lt;").replace(/>/g, "&gt;")))
    .join("");
}
