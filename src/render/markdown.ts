import type { Report, Table } from "../report/model.js";
import { cellText, formatValue } from "./cell.js";
import { alignOf } from "./kinds.js";
import { sanitize } from "./sanitize.js";

/** GitHub-flavoured markdown, thousands separators, ready to paste into a write-up. */
export function renderMarkdown(report: Report, level = 2): string {
  const h = "#".repeat(level);
  const out: string[] = [`${h} ${mdText(report.title)}`, ""];
  if (report.summary?.length) {
    for (const [k, v, kind] of report.summary) out.push(`- **${mdText(k)}**: ${mdCell(formatValue(v, kind ?? "text", "—"))}`);
    out.push("");
  }
  let section: string | undefined;
  for (const t of report.tables) {
    if (t.section !== undefined && t.section !== section) out.push(`${"#".repeat(level + 1)} ${mdText(t.section)}`, "");
    section = t.section;
    out.push(renderTable(t, t.section !== undefined ? level + 2 : level + 1), "");
  }
  return `${out.join("\n").trimEnd()}\n`;
}

export function renderTable(t: Table, level: number): string {
  const out = [`${"#".repeat(level)} ${mdText(t.title)}`, ""];
  if (t.rows.length === 0 && !t.footer?.length) {
    out.push("_(none)_");
  } else {
    out.push(`| ${t.columns.map((c) => mdCell(c.header)).join(" | ")} |`);
    out.push(`|${t.columns.map((c) => (alignOf(c) === "right" ? "---:" : "---")).join("|")}|`);
    for (const r of t.rows) out.push(`| ${t.columns.map((c) => mdCell(cellText(r, c, "—"))).join(" | ")} |`);
    for (const r of t.footer ?? []) out.push(`| ${t.columns.map((c) => bold(mdCell(cellText(r, c, "")))).join(" | ")} |`);
  }
  for (const n of t.notes ?? []) out.push("", `> ${mdText(n)}`);
  return out.join("\n");
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
