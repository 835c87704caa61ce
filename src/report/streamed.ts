/**
 * An iterable the JSON writer serialises as an array, element by element, without holding it: a million
 * request rows read back from a spool (sources/row-spool.ts). The mark is a registered symbol, so layers
 * below the report model (which may not import it) set it with `Symbol.for` alone. Such an object should
 * also offer `toJSON` (an array): below the streamed depth, and in plain JSON.stringify, that is what prints.
 */
export const JSON_ARRAY: unique symbol = Symbol.for("ccforensics.jsonArray");

export interface StreamedArray<T> extends Iterable<T> {
  readonly [JSON_ARRAY]: true;
}

export function isStreamedArray(v: unknown): v is StreamedArray<unknown> {
  return typeof v === "object" && v !== null && (v as { [JSON_ARRAY]?: unknown })[JSON_ARRAY] === true;
}
