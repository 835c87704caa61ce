import { byCount, otherLabel, type OtherNames } from "../records/counts.js";
import { excerptOf } from "../records/json.js";
import type { Health } from "../records/health.js";
import { kindHint } from "../records/sources.js";
import { CANNOT_LIST, type SkippedEntry } from "../sources/guard.js";
import { formatInt } from "./int-format.js";
import { col, type Table } from "./model.js";

/** Parse health as a table: one row per malformed or damaged line, with unknown types in the notes. */
export function healthTable(h: Health): Table {
  const notes = [
    `${n(h.lines)} lines, ${n(h.records)} records, ${n(h.blankLines)} blank, ${n(h.malformedCount)} malformed` +
      (h.malformedCount > h.malformed.length ? ` (first ${h.malformed.length} listed)` : ""),
  ];
  if (h.damagedCount) notes.push(damagedNote(h.damagedCount) + listed(h.damagedCount, h.damaged.length));
  const unknown = byCount(h.unknownTypes);
  if (unknown.length) notes.push(`unknown record types (passed over): ${unknownList(unknown, h)}`);
  if (h.invalidValueCount)
    notes.push(
      `${h.invalidValueCount} invalid value${h.invalidValueCount === 1 ? "" : "s"} (unknown, not counted)${listed(h.invalidValueCount, h.invalidValues.length)}`,
    );
  if (h.scanned?.length) notes.push(scannedNote(h));
  if (h.notRequestCount)
    notes.push(
      `${h.notRequestCount} assistant record${h.notRequestCount === 1 ? "" : "s"} without message or usage (not requests)${listed(h.notRequestCount, h.notRequests.length)}`,
    );
  const rows = [
    ...h.malformed.map((m) => ({ ...m })),
    ...h.damaged.map((d) => ({ file: d.file, line: d.line, reason: `read despite damage: ${d.reason}`, excerpt: "" })),
    ...h.invalidValues.map((v) => ({ file: v.file, line: v.line, reason: `invalid value in ${v.field}`, excerpt: v.value })),
    ...h.notRequests.map((n) => ({ file: n.file, line: n.line, reason: n.reason, excerpt: "" })),
  ];
  // A target of the wrong kind leads; with no row it is what the table says (markdown and HTML leave out an empty table).
  const wrong = wrongKindNotes(h);
  return {
    id: "health",
    title: "Parse health",
    columns: [
      col("file", "file", "path", { priority: 1 }),
      col("line", "line", "int", { priority: 1 }),
      col("reason", "reason", "text", { priority: 1 }),
      // Whole in the row (CSV writes it, as JSON's health has it); the human formats show its first 60 characters,
      // cut at render: after --redact, so an id the cut would split is redacted whole first.
      col("excerpt", "excerpt", "text", { priority: 3, cut: 60 }),
    ],
    rows,
    notes: rows.length > 0 ? [...wrong, ...notes] : notes,
    ...(wrong.length > 0 && rows.length === 0 ? { whenEmpty: wrong.join("; ") } : {}),
  };
}

/** An input read as a transcript that looks like another kind of evidence (health.wrongKind), and where it goes instead. */
function wrongKindNotes(h: Health): string[] {
  return (h.wrongKind ?? []).map((k) => `this looks like ${kindHint(k.looksLike) ?? k.looksLike} (${k.file}, read as a ${k.readAs})`);
}

function damagedNote(k: number): string {
  // Entries, not lines: one line can carry both damages (a NUL run and bytes that are not UTF-8).
  return `${n(k)} ${k === 1 ? "entry" : "entries"} of damage in lines read as records (NUL bytes skipped, bytes that are not UTF-8 read as U+FFFD, or values nested too deep read as null)`;
}

function scannedNote(h: Health): string {
  const k = h.scanned!.length;
  return `${k} line${k === 1 ? "" : "s"} too long to parse whole, scanned as ${k === 1 ? "it" : "they"} streamed (counts exact; long strings counted on the bytes, their text read back when needed)`;
}

/**
 * `name ×count, …` for the first `max` names (each cut as an excerpt: a type can be thousands of characters),
 * then the rest, those past health's own cap (health.unknownTypesOther) included, as one item. JSON keeps them all.
 */
function unknownList(unknown: Array<[string, number]>, h: Health, max = 10): string {
  const shown = unknown.slice(0, max).map(([t, k]) => `${excerptOf(t)} ×${k}`);
  const rest: OtherNames = { ...(h.unknownTypesOther ?? { names: 0, records: 0 }) };
  for (const [, k] of unknown.slice(max)) {
    rest.names++;
    rest.records += k;
  }
  if (rest.names > 0) shown.push(otherLabel(rest) + (unknown.length > max ? " (see health.unknownTypes in --json)" : ""));
  return shown.join(", ");
}

// Counts only (integers): formatInt writes them as toLocaleString("en-US") does, without the ~20 ms of ICU's first number format.
const n = formatInt;
const listed = (all: number, shown: number) => (all > shown ? ` (first ${shown} listed)` : "");

/** One-line-per-problem warnings for stderr. */
export function healthWarnings(h: Health, max = 10): string[] {
  const w: string[] = wrongKindNotes(h);
  if (h.malformedCount > 0) {
    w.push(`${h.malformedCount} malformed line${h.malformedCount === 1 ? "" : "s"} (not records; counted in health):`);
    for (const m of h.malformed.slice(0, max)) w.push(`  ${m.file}:${m.line}: ${m.reason}`);
    if (h.malformedCount > max) w.push(`  … and ${h.malformedCount - max} more (see health in --json)`);
  }
  if (h.damagedCount > 0) {
    w.push(`${damagedNote(h.damagedCount)}; counted in health:`);
    for (const d of h.damaged.slice(0, max)) w.push(`  ${d.file}:${d.line}: ${d.reason}`);
    if (h.damagedCount > max) w.push(`  … and ${h.damagedCount - max} more (see health.damaged in --json)`);
  }
  const unknown = Object.entries(h.unknownTypes);
  if (unknown.length) w.push(`unknown record types passed over: ${unknownList(unknown, h)}`);
  if (h.invalidValueCount > 0) {
    w.push(
      `${h.invalidValueCount} invalid value${h.invalidValueCount === 1 ? "" : "s"} (unknown, left out of every sum; counted in health):`,
    );
    for (const v of h.invalidValues.slice(0, max)) w.push(`  ${v.file}:${v.line}: ${v.field} = ${v.value}`);
    if (h.invalidValueCount > max) w.push(`  … and ${h.invalidValueCount - max} more (see health in --json)`);
  }
  if (h.scanned?.length) {
    w.push(scannedNote(h) + ":");
    for (const s of h.scanned.slice(0, max))
      w.push(
        `  ${s.file}:${s.line}: ${n(s.bytes)} bytes${s.textKept ? "" : "; a string in it is past V8's length limit: counted, read as empty"}`,
      );
    if (h.scanned.length > max) w.push(`  … and ${h.scanned.length - max} more (see health.scanned in --json)`);
  }
  if (h.notRequestCount > 0) {
    w.push(`${h.notRequestCount} assistant record${h.notRequestCount === 1 ? "" : "s"} not counted as requests (counted in health):`);
    for (const n of h.notRequests.slice(0, max)) w.push(`  ${n.file}:${n.line}: ${n.reason}`);
    if (h.notRequestCount > max) w.push(`  … and ${h.notRequestCount - max} more (see health in --json)`);
  }
  return w;
}

/** Discovered files and folders that were not read, and why (health.skipped). */
export function skippedTable(skipped: SkippedEntry[]): Table {
  return {
    id: "skipped",
    title: "Skipped files (outside the session tree, not regular files, unreadable, or of no session; not read)",
    columns: [col("path", "path", "path", { priority: 1 }), col("reason", "reason", "text", { priority: 1 })],
    rows: skipped.map((s) => ({ ...s })),
  };
}

/** One stderr line for everything discovery passed over. */
export function skippedWarning(skipped: SkippedEntry[]): string {
  const list = skipped
    .slice(0, 5)
    .map((s) => `${s.path} (${s.reason})`)
    .join("; ");
  const more = skipped.length > 5 ? `; … and ${skipped.length - 5} more (see health.skipped in --json)` : "";
  const folders = skipped.filter((s) => s.reason.startsWith(CANNOT_LIST)).length;
  const files = skipped.length - folders;
  const what = [
    files > 0 ? `${files} discovered file${files === 1 ? "" : "s"}` : "",
    folders > 0 ? `${folders} folder${folders === 1 ? "" : "s"} that could not be listed` : "",
  ]
    .filter(Boolean)
    .join(" and ");
  return `skipped ${what}, not read: ${list}${more}`;
}
