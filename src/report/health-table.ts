import type { Health } from "../analyses/health.js";
import type { SkippedEntry } from "../sources/guard.js";
import { col, type Table } from "./model.js";

/** Parse health as a table: one row per malformed line, with unknown types in the notes. */
export function healthTable(h: Health): Table {
  const notes = [
    `${h.lines} lines, ${h.records} records, ${h.blankLines} blank, ${h.malformedCount} malformed` +
      (h.malformedCount > h.malformed.length ? ` (first ${h.malformed.length} listed)` : ""),
  ];
  const unknown = Object.entries(h.unknownTypes).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (unknown.length) notes.push(`unknown record types (passed over): ${unknown.map(([t, n]) => `${t} ×${n}`).join(", ")}`);
  return {
    id: "health",
    title: "Parse health",
    columns: [col("file", "file"), col("line", "line", "int"), col("reason", "reason"), col("excerpt", "excerpt")],
    rows: h.malformed.map((m) => ({ ...m, excerpt: m.excerpt.length > 60 ? `${m.excerpt.slice(0, 60)}…` : m.excerpt })),
    notes,
  };
}

/** One-line-per-problem warnings for stderr. */
export function healthWarnings(h: Health, max = 10): string[] {
  const w: string[] = [];
  if (h.malformedCount > 0) {
    w.push(`${h.malformedCount} malformed line${h.malformedCount === 1 ? "" : "s"} (not records; counted in health):`);
    for (const m of h.malformed.slice(0, max)) w.push(`  ${m.file}:${m.line}: ${m.reason}`);
    if (h.malformedCount > max) w.push(`  … and ${h.malformedCount - max} more (see health in --json)`);
  }
  const unknown = Object.entries(h.unknownTypes);
  if (unknown.length) w.push(`unknown record types passed over: ${unknown.map(([t, n]) => `${t} ×${n}`).join(", ")}`);
  return w;
}

/** Discovered files that were not read, and why (health.skipped). */
export function skippedTable(skipped: SkippedEntry[]): Table {
  return {
    id: "skipped",
    title: "Skipped files (outside the session tree or not regular files; not read)",
    columns: [col("path", "path"), col("reason", "reason")],
    rows: skipped.map((s) => ({ ...s })),
  };
}

/** One stderr line for everything discovery passed over. */
export function skippedWarning(skipped: SkippedEntry[]): string {
  const list = skipped.slice(0, 5).map((s) => `${s.path} (${s.reason})`).join("; ");
  const more = skipped.length > 5 ? `; … and ${skipped.length - 5} more (see health.skipped in --json)` : "";
  return `skipped ${skipped.length} discovered file${skipped.length === 1 ? "" : "s"}, not read: ${list}${more}`;
}
