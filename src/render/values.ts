import { sanitize } from "./sanitize.js";

export { formatValue } from "./cell.js";
export { formatBytes } from "./kinds.js";

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
