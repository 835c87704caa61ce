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

/** An array or a streamed iterable, element by element: the same text for both. */
function* elements(items: Iterable<unknown>, depth: number): Generator<string, string> {
  const pad = INDENT.repeat(depth);
  let i = 0;
  for (const item of items) {
    yield `${i === 0 ? "[" : ","}\n${pad}${INDENT}`;
    const text = yield* property(item, String(i), depth + 1);
    yield text ?? "null";
    i++;
  }
  if (i === 0) return "[]";
  yield `\n${pad}]`;
  return "";
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
