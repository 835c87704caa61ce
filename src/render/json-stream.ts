import { isStreamedArray } from "../report/streamed.js";

/**
 * `JSON.stringify(value, null, 2)` as a sequence of chunks, so a document of a million rows never
 * exists as one string (V8 caps strings at ≈512 MiB; "Invalid string length"). Objects are written key
 * by key and arrays element by element near the top, where the long lists are (`requests`,
 * `toolResults`, `health.malformed`, `debug.events`); deeper values are small and go through
 * JSON.stringify whole, re-indented. The chunks joined are byte-identical to JSON.stringify's output.
 */
export function* jsonChunks(value: unknown): Generator<string> {
  const text = yield* property(value, "", 0);
  if (text !== undefined) yield text;
}

export { JSON_ARRAY, isStreamedArray, type StreamedArray } from "../report/streamed.js";

/** Objects at depth ≤ 1 and arrays at depth ≤ 2 are streamed; everything deeper is stringified whole. */
const STREAM_OBJECTS_TO = 1;
const STREAM_ARRAYS_TO = 2;
const INDENT = "  ";

/**
 * Serialises one property the way the spec's SerializeJSONProperty does (toJSON with the key, wrappers
 * unwrapped). Streamed containers yield their text and return ""; anything else is returned whole,
 * `undefined` when JSON.stringify would omit the property (undefined, functions, symbols).
 */
function* property(value: unknown, key: string, depth: number): Generator<string, string | undefined> {
  if (isStreamedArray(value)) {
    if (depth <= STREAM_ARRAYS_TO) return yield* elements(value, depth);
    value = Array.from(value);
  }
  if (hasToJSON(value)) value = value.toJSON(key);
  if (!isObject(value) || value instanceof Number || value instanceof String || value instanceof Boolean || typeof value === "function") {
    return whole(value);
  }
  const pad = INDENT.repeat(depth);
  if (Array.isArray(value) ? depth > STREAM_ARRAYS_TO : depth > STREAM_OBJECTS_TO) {
    // A string never holds a raw newline in JSON, so every "\n" is layout and can take the outer indent.
    return whole(value)?.replace(/\n/g, `\n${pad}`);
  }
  if (Array.isArray(value)) return yield* elements(value, depth);
  let first = true;
  for (const k of Object.keys(value)) {
    // Whether the property is written is known only once its value is: a pending prefix holds the comma.
    const prefix = `${first ? "{" : ","}\n${pad}${INDENT}${JSON.stringify(k)}: `;
    const gen = property((value as Record<string, unknown>)[k], k, depth + 1);
    let step = gen.next();
    if (step.done && step.value === undefined) continue;
    yield prefix;
    first = false;
    while (!step.done) {
      yield step.value;
      step = gen.next();
    }
    yield step.value ?? "";
  }
  if (first) return "{}";
  yield `\n${pad}}`;
  return "";
}

/** Rows stringified in one call: a JSON.stringify call and a re-indent per row cost more than the row. */
const BATCH_ROWS = 128;

/**
 * An array or a streamed iterable, element by element: the same text for both. Runs of plain objects
 * past the streamed depth (request rows) go to JSON.stringify a batch at a time, nested so that they come
 * out at their own indentation (see `batchText`).
 */
function* elements(items: Iterable<unknown>, depth: number): Generator<string, string> {
  const pad = INDENT.repeat(depth);
  const batchable = depth + 1 > STREAM_OBJECTS_TO;
  const batch: object[] = [];
  let i = 0;
  const flush = (): string => {
    const text = `${i === batch.length ? "[" : ","}\n${pad}${INDENT}${batchText(batch, depth + 1)}`;
    batch.length = 0;
    return text;
  };
  for (const item of items) {
    if (batchable && isPlainObject(item)) {
      batch.push(item);
      i++;
      if (batch.length === BATCH_ROWS) yield flush();
      continue;
    }
    if (batch.length) yield flush();
    yield `${i === 0 ? "[" : ","}\n${pad}${INDENT}`;
    const text = yield* property(item, String(i), depth + 1);
    yield text ?? "null";
    i++;
  }
  if (batch.length) yield flush();
  if (i === 0) return "[]";
  yield `\n${pad}]`;
  return "";
}

/** An object JSON.stringify writes as `whole` would, whatever its key: no toJSON, no streamed or boxed value, no array. */
function isPlainObject(v: unknown): v is object {
  return (
    typeof v === "object" &&
    v !== null &&
    !Array.isArray(v) &&
    !isStreamedArray(v) &&
    !hasToJSON(v) &&
    !(v instanceof Number || v instanceof String || v instanceof Boolean)
  );
}

const wrappers = new Map<number, { head: number; tail: number }>();

/**
 * The elements of `rows` as elements at `depth` write them, separators included: JSON.stringify of `rows`
 * nested in `depth - 1` arrays indents them as the document does, and the wrapping is cut off again.
 */
function batchText(rows: object[], depth: number): string {
  let value: unknown = rows;
  for (let d = 1; d < depth; d++) value = [value];
  let w = wrappers.get(depth);
  if (!w) {
    let probe: unknown = [0];
    for (let d = 1; d < depth; d++) probe = [probe];
    const text = JSON.stringify(probe, null, 2);
    const at = text.indexOf("0");
    w = { head: at, tail: text.length - at - 1 };
    wrappers.set(depth, w);
  }
  const text = JSON.stringify(value, null, 2);
  return text.slice(w.head, text.length - w.tail);
}

/**
 * JSON.stringify of a value whose toJSON (if any) was already called: JSON.stringify would call the
 * result's own toJSON again, so in that rare case a root replacer hands the value over unconverted.
 */
function whole(v: unknown): string | undefined {
  if (!hasToJSON(v)) return JSON.stringify(v, null, 2);
  let root = true;
  return JSON.stringify(
    null,
    (_k, x: unknown) => {
      if (!root) return x;
      root = false;
      return v;
    },
    2,
  );
}

function hasToJSON(v: unknown): v is { toJSON(key: string): unknown } {
  return isObject(v) && typeof (v as { toJSON?: unknown }).toJSON === "function";
}

function isObject(v: unknown): v is object {
  return (typeof v === "object" && v !== null) || typeof v === "function";
}
