import { sanitize } from "./sanitize.js";

export { formatValue } from "./cell.js";
export { formatBytes } from "./kinds.js";


/** Raw value for CSV: numbers stay plain, booleans true/false, arrays joined; evidence text escaped. */
export function rawValue(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (typeof v === "string") return sanitize(v);
  if (Array.isArray(v)) return sanitize(v.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join("; "));
  return sanitize(JSON.stringify(v));
}
