import type { Column, ColumnKind, Row } from "../report/model.js";
import { sanitize } from "./sanitize.js";
import { displayZone, timeInZone } from "./zone.js";
import { formatInt } from "../report/int-format.js";

/** One cell's text from its raw value; the row gives a composing kind its companion fields. Never throws. */
export type Formatter = (v: unknown, row: Row, c: Column) => string;

// Made at first use: an Intl formatter costs milliseconds to build, and JSON output loads this module without formatting a cell.
let ratioFormat: Intl.NumberFormat | undefined;
const INT = { format: formatInt };
const RATIO = {
  format: (n: number) => (ratioFormat ??= new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })).format(n),
};

/** Claude Code's own size text: <1024 → "N bytes", else 1024-based with one decimal, ".0" dropped (FORMATS.md 6.1). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  const units = ["KB", "MB", "GB"];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${(Math.round(v * 10) / 10).toString()}${units[u]}`;
}

/** Tokens per character spans 0.003 (a saved 320,000-char result) to 2 (CJK): two decimals would print 0.00. */
export function formatRate(v: number): string {
  return v >= 0.1 || v === 0 ? v.toFixed(2) : v.toPrecision(2);
}

/** Evidence text, escaped for a terminal; lists joined, anything else as JSON. */
export const text: Formatter = (v) => sanitize(typeof v === "string" ? v : Array.isArray(v) ? v.join(", ") : (JSON.stringify(v) ?? ""));

/** The longest evidence text a human format's cell shows of a log entry or message; CSV and JSON keep it whole. */
export const CELL_TEXT_MAX = 160;
const cutCell = (t: string) => (t.length > CELL_TEXT_MAX ? `${t.slice(0, CELL_TEXT_MAX - 1)}…` : t);

/** A log entry: its first line, cut, and how many lines were left out (a ZodError's issue list). */
export const entry: Formatter = (v, row, c) => {
  if (typeof v !== "string") return text(v, row, c);
  const nl = v.indexOf("\n");
  if (nl < 0) return text(cutCell(v), row, c);
  return `${text(cutCell(v.slice(0, nl)), row, c)} (+${v.split("\n").length - 1} lines)`;
};

/** An error message on one line: its lines joined with spaces, cut. */
export const message: Formatter = (v, row, c) =>
  typeof v === "string" ? text(cutCell(v.replace(/\s+/g, (w) => (w.includes("\n") ? " " : w)).trim()), row, c) : text(v, row, c);

/** A numeric kind shows a non-number (a footer label such as `total`) as text. */
const numeric =
  (f: (n: number) => string): Formatter =>
  (v, row, c) =>
    typeof v === "number" ? f(v) : text(v, row, c);

const part = (row: Row, c: Column, i: number): unknown => {
  const k = c.parts?.[i];
  return k === undefined ? undefined : row[k];
};
const intOrZero = (v: unknown) => INT.format(typeof v === "number" ? v : 0);

export const int = numeric((n) => INT.format(n));
// A mean's difference (a delta against two baseline runs of 20,138 and 20,141) is not whole: one decimal, never rounded away.
let tenthFormat: Intl.NumberFormat | undefined;
const signedText = (x: number): string => {
  const n = x + 0; // no -0
  const s = Number.isInteger(n)
    ? INT.format(n)
    : (tenthFormat ??= new Intl.NumberFormat("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 })).format(n);
  return n > 0 ? `+${s}` : s;
};
export const signed = numeric(signedText);
/** A null growth with a trigger in `parts[0]` is a compaction's reset, not an unknown: say so, with the context it replaced. */
export const delta: Formatter = (v, row, c) => {
  if (typeof v === "number") return signed(v, row, c);
  const trigger = part(row, c, 0);
  if (v === null || v === undefined) {
    if (trigger === undefined || trigger === null || trigger === false) return "";
    const pre = part(row, c, 1);
    const what = [typeof trigger === "string" ? sanitize(trigger) : "", typeof pre === "number" ? `${INT.format(pre)} before` : ""];
    return `reset (${what.filter((x) => x !== "").join(", ") || "compaction"})`;
  }
  return text(v, row, c);
};
export const bytes = numeric(formatBytes);
export const ms = numeric((n) => `${INT.format(n)} ms`);
/** Two decimals; a value that would read as 0.00 but is not zero keeps two significant digits (a spread of 0.004 is no 0). */
export const ratio = numeric((n) => (n !== 0 && Math.abs(n) < 0.005 ? n.toPrecision(2) : RATIO.format(n)));
export const rate = numeric(formatRate);
/** Four decimals; a cost that would read as $0.0000 but is not zero keeps two significant digits. */
export const usd = numeric((n) => (n !== 0 && Math.abs(n) < 0.00005 ? `$${n.toPrecision(2)}` : `$${n.toFixed(4)}`));
export const usdExact = numeric((n) => `$${n.toFixed(6)}`);
export const bool: Formatter = (v, row, c) => (v === true ? "yes" : v === false ? "no" : text(v, row, c));
// --tz: tables and markdown show the run's zone; UTC text passes through unchanged.
export const time: Formatter = (v) => sanitize(typeof v === "string" ? timeInZone(v, displayZone()) : String(v));

/** `2,194 (0/2,194)`; the brackets only when either part is known. */
export const split: Formatter = (v, row, c) => {
  if (typeof v !== "number") return text(v, row, c);
  const a = part(row, c, 0);
  const b = part(row, c, 1);
  const known = (a !== null && a !== undefined) || (b !== null && b !== undefined);
  return known ? `${INT.format(v)} (${intOrZero(a)}/${intOrZero(b)})` : INT.format(v);
};

/** `2 (1,442)`, or `2 (≈307)` when the exact flag in `parts[1]` is false; blank for none. */
export const countOf: Formatter = (v, row, c) => {
  if (typeof v !== "number") return text(v, row, c);
  if (v === 0) return "";
  const approx = c.parts?.[1] !== undefined && part(row, c, 1) !== true;
  return `${v} (${approx ? "≈" : ""}${intOrZero(part(row, c, 0))})`;
};

/** `20000 → 2048`, as Claude Code's debug log writes it. */
export const change: Formatter = (v, row, c) => `${text(v, row, c)} → ${text(part(row, c, 0) ?? "?", row, c)}`;

/** `2 (+1,234)`, or `2` when the growth is unknown; blank for none. */
export const countGrowth: Formatter = (v, row, c) => {
  if (typeof v !== "number") return text(v, row, c);
  if (v === 0) return "";
  const g = part(row, c, 0);
  return typeof g === "number" ? `${v} (+${INT.format(g)})` : String(v);
};

export const consulted: Formatter = (v, row, c) => (typeof v !== "number" ? text(v, row, c) : v > 0 ? `yes (${v})` : "no");

export const mixed: Formatter = (v, row, c) => formatterFor(namedKind(row.kind))(v, row, c);

export function formatterFor(kind: ColumnKind): Formatter {
  switch (kind) {
    case "int":
      return int;
    case "signed":
      return signed;
    case "delta":
      return delta;
    case "bytes":
      return bytes;
    case "ms":
      return ms;
    case "ratio":
      return ratio;
    case "rate":
      return rate;
    case "usd":
      return usd;
    case "usdExact":
      return usdExact;
    case "bool":
      return bool;
    case "time":
      return time;
    case "text":
    case "id":
    case "path":
      return text;
    case "entry":
      return entry;
    case "message":
      return message;
    case "split":
      return split;
    case "countOf":
      return countOf;
    case "change":
      return change;
    case "countGrowth":
      return countGrowth;
    case "consulted":
      return consulted;
    case "mixed":
      return mixed;
    default:
      return kind satisfies never;
  }
}

/** Plain numbers read right-aligned; composed cells (`2,194 (0/2,194)`) and text read from the left. */
export function alignOf(c: Column): "left" | "right" {
  if (c.align) return c.align;
  switch (c.kind) {
    case "int":
    case "signed":
    case "delta":
    case "bytes":
    case "ms":
    case "ratio":
    case "rate":
    case "usd":
    case "usdExact":
      return "right";
    case "time":
    case "bool":
    case "text":
    case "entry":
    case "message":
    case "id":
    case "path":
    case "split":
    case "countOf":
    case "change":
    case "countGrowth":
    case "consulted":
    case "mixed":
      return "left";
    default:
      return c.kind satisfies never;
  }
}

const KINDS = new Set<string>([
  "int",
  "signed",
  "delta",
  "bytes",
  "ms",
  "ratio",
  "rate",
  "usd",
  "usdExact",
  "time",
  "bool",
  "text",
  "entry",
  "message",
  "id",
  "path",
  "split",
  "countOf",
  "change",
  "countGrowth",
  "consulted",
  "mixed",
] satisfies ColumnKind[]);

/** The kind a key/value row names for its value (`row.kind`), or text when it names none or an unknown one. */
export const namedKind = (k: unknown): Exclude<ColumnKind, "mixed"> =>
  typeof k === "string" && k !== "mixed" && KINDS.has(k) ? (k as Exclude<ColumnKind, "mixed">) : "text";
