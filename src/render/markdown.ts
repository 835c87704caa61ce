import type { Report, Table } from "../report/model.js";
import { formatValue } from "./values.js";
import { mdBlock, mdHeading, mdInline } from "./md-escape.js";

const NUMERIC = new Set(["int", "signed", "bytes", "ms", "ratio", "usd"]);

/**
 * GitHub-flavoured markdown, thousands separators, ready to paste into a write-up. The headings, bold
 * keys and footers, bullets and quotes are the tool's own markup; every text inside them may come from
 * evidence and goes through md-escape.ts.
 */
export function renderMarkdown(report: Report, level = 2): string {
  const h = "#".repeat(level);
  const out: string[] = [`${h} ${mdHeading(report.title)}`, ""];
  if (report.summary?.length) {
    for (const [k, v, kind] of report.summary) out.push(`- ${bold(mdInline(k))}: ${mdInline(formatValue(v, kind ?? "text", "—"))}`);
    out.push("");
  }
  let section: string | undefined;
  for (const t of report.tables) {
    if (t.section !== undefined && t.section !== section) out.push(`${"#".repeat(level + 1)} ${mdHeading(t.section)}`, "");
    section = t.section;
    out.push(renderTable(t, t.section !== undefined ? level + 2 : level + 1), "");
  }
  return `${out.join("\n").trimEnd()}\n`;
}

export function renderTable(t: Table, level: number): string {
  const out = [`${"#".repeat(level)} ${mdHeading(t.title)}`, ""];
  if (t.rows.length === 0 && !t.footer?.length) {
    out.push("_(none)_");
  } else {
    out.push(`| ${t.columns.map((c) => mdInline(c.header)).join(" | ")} |`);
    out.push(`|${t.columns.map((c) => (NUMERIC.has(c.kind) ? "---:" : "---")).join("|")}|`);
    for (const r of t.rows) out.push(`| ${t.columns.map((c) => mdInline(formatValue(r[c.key], c.kind, "—"))).join(" | ")} |`);
    for (const r of t.footer ?? []) out.push(`| ${t.columns.map((c) => bold(mdInline(formatValue(r[c.key], c.kind, "")))).join(" | ")} |`);
  }
  for (const n of t.notes ?? []) out.push("", `> ${mdBlock(n)}`);
  return out.join("\n");
}

/** Strong emphasis does not open or close next to white space: the text goes in trimmed. */
function bold(s: string): string {
  const t = s.trim();
  return t === "" ? t : `**${t}**`;
}
