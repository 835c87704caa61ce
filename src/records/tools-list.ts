import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parser } from "stream-json";
import { pick } from "stream-json/filters/pick.js";
import { streamValues } from "stream-json/streamers/stream-values.js";
import { readLines, type InputFile, type ReadOptions } from "../sources/input.js";
import { isObject, num } from "./json.js";

/** One tool of a `tools/list` result as far as outputs care: its name and the `_meta` keys of FORMATS.md 9.4. */
export interface ToolMeta {
  name: string;
  /** `_meta["anthropic/maxResultSizeChars"]` (≤ 500,000, v2.1.91+): raises the size check for this tool's text. */
  maxResultSizeChars: number | null;
  alwaysLoad: boolean | null;
}

export interface ToolsList {
  tools: ToolMeta[];
  /** Why the file stopped parsing, if it did; the tools read before that point are kept. */
  error: string | null;
}

export const MAX_RESULT_SIZE_KEY = "anthropic/maxResultSizeChars";

/** A tool object of a tools/list response, or undefined when the value is not one. */
export function toolMetaOf(v: unknown): ToolMeta | undefined {
  if (!isObject(v) || typeof v.name !== "string") return undefined;
  const meta = isObject(v._meta) ? v._meta : {};
  const always = meta["anthropic/alwaysLoad"];
  return { name: v.name, maxResultSizeChars: num(meta[MAX_RESULT_SIZE_KEY]) ?? null, alwaysLoad: typeof always === "boolean" ? always : null };
}

/** Elements of any array under a `tools` key (`result.tools`, `tools`), or of a bare top-level array. */
const IN_TOOLS = (stack: Array<string | number | null>): boolean => {
  const last = stack[stack.length - 1];
  if (typeof last !== "number") return false;
  return stack.length === 1 || stack[stack.length - 2] === "tools";
};

/**
 * Reads the tools of a `tools/list` response given with `--tools FILE`: the JSON-RPC response
 * (`{"result":{"tools":[…]}}`, pretty-printed or not), a bare `{"tools":[…]}`, a bare array, or a
 * message log with one such response per line. Streamed with stream-json: one tool object is
 * assembled at a time, so a large response never sits whole in memory.
 */
export async function readToolsList(input: InputFile, opts: ReadOptions = {}): Promise<ToolsList> {
  const tools: ToolMeta[] = [];
  const seen = new Set<string>();
  const source = Readable.from(
    (async function* () {
      for await (const raw of readLines(input, opts)) {
        yield raw.buf;
        yield NEWLINE;
      }
    })(),
  );
  const sink = new Writable({
    objectMode: true,
    write(item: { value: unknown }, _enc, done) {
      const t = toolMetaOf(item.value);
      if (t && !seen.has(t.name)) {
        seen.add(t.name);
        tools.push(t);
      }
      done();
    },
  });
  try {
    await pipeline(source, parser.asStream({ jsonStreaming: true }), pick.asStream({ filter: IN_TOOLS }), streamValues.asStream(), sink);
    return { tools, error: null };
  } catch (e) {
    return { tools, error: (e as Error).message };
  }
}

const NEWLINE = Buffer.from("\n");

/** The tools of a tools/list result object already parsed (an RPC log reader hands these over). */
export function toolsFromResult(result: unknown): ToolMeta[] {
  if (!isObject(result) || !Array.isArray(result.tools)) return [];
  return result.tools.map(toolMetaOf).filter((t): t is ToolMeta => t !== undefined);
}

/** By name, for the outputs join; the first entry of a name wins. */
export function toolsByName(list: ToolMeta[]): Map<string, ToolMeta> {
  const m = new Map<string, ToolMeta>();
  for (const t of list) if (!m.has(t.name)) m.set(t.name, t);
  return m;
}
