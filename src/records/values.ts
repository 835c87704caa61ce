import { isObject, type JsonObject } from "./json.js";

/** A value in evidence that is not what its field claims: a token count of `1e308`, `-500` or `"12"`. */
export interface InvalidValue {
  /** Dotted path from the record, e.g. `message.usage.cache_creation.ephemeral_5m_input_tokens`. */
  field: string;
  /** The value as JSON text, cut to 60 characters. */
  value: string;
}

/** What the API writes for a token or size count: a non-negative integer a double holds exactly. */
export const isCount = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

/**
 * Reads a count field. Absent → `undefined` (the build does not write it); a count → the number;
 * anything else (`null` included: the field is there and claims a number) → `null`, unknown, with
 * the value listed in `bad`. Callers never turn `null` into 0.
 */
export function countField(o: JsonObject, key: string, path: string, bad: InvalidValue[]): number | null | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (isCount(v)) return v;
  bad.push({ field: `${path}.${key}`, value: valueText(v) });
  return null;
}

/** Checks every count in a nested usage object whose fields the tool does not read (`server_tool_use`). */
export function checkCounts(v: unknown, path: string, bad: InvalidValue[]): void {
  if (v === undefined) return;
  if (!isObject(v)) {
    bad.push({ field: path, value: valueText(v) });
    return;
  }
  for (const k of Object.keys(v)) countField(v, k, path, bad);
}

/** Sum that stays a safe integer: past 2^53 − 1 the total is unknown (null), never ∞ or a rounded guess. */
export function addCounts(a: number | null, b: number | null): number | null {
  if (a === null || b === null) return null;
  const s = a + b;
  return Number.isSafeInteger(s) ? s : null;
}

export function valueText(v: unknown): string {
  const t = v === undefined ? "undefined" : (JSON.stringify(v) ?? String(v));
  return t.length > 60 ? `${t.slice(0, 60)}…` : t;
}
