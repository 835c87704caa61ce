import type { ColumnKind } from "../report/model.js";
import { sanitize } from "./sanitize.js";

const INT = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const RATIO = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

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

/** Human text for one cell. Null/undefined print as an empty cell in tables and "—" in markdown. */
export function formatValue(v: unknown, kind: ColumnKind, empty = ""): string {
  if (v === null || v === undefined || v === "") return empty;
  switch (kind) {
    case "int":
      return typeof v === "number" ? INT.format(v) : sanitize(String(v));
    case "signed":
      return typeof v === "number" ? (v > 0 ? `+${INT.format(v)}` : INT.format(v)) : sanitize(String(v));
    case "bytes":
      return typeof v === "number" ? formatBytes(v) : sanitize(String(v));
    case "ms":
      return typeof v === "number" ? `${INT.format(v)} ms` : sanitize(String(v));
    case "ratio":
      return typeof v === "number" ? RATIO.format(v) : sanitize(String(v));
    case "usd":
      return typeof v === "number" ? `$${v.toFixed(4)}` : sanitize(String(v));
    case "bool":
      return v === true ? "yes" : v === false ? "no" : sanitize(String(v));
    case "time":
      return sanitize(String(v));
    case "text":
      return sanitize(typeof v === "string" ? v : Array.isArray(v) ? v.join(", ") : JSON.stringify(v));
    default:
      // A new column kind must say here how it prints.
      return kind satisfies never;
  }
}

/**
 * Raw value for CSV: numbers and booleans keep their type (csv-stringify tells a number `-5` from text
 * `-5`), arrays joined, evidence text escaped.
 */
export function csvValue(v: unknown): string | number | boolean | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "number" || typeof v === "boolean") return v;
  if (typeof v === "string") return sanitize(v);
  if (Array.isArray(v)) return sanitize(v.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join("; "));
  return sanitize(JSON.stringify(v));
}
