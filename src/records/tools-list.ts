import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parser } from "stream-json";
import { pick } from "stream-json/filters/pick.js";
import { streamValues } from "stream-json/streamers/stream-values.js";
import { LineSplitter, type RawLine } from "../sources/lines.js";
import { isObject, num } from "./json.js";
import type { Pos } from "./pos.js";
import type { MalformedLine, Source } from "./source.js";

/** One tool of a `tools/list` result: its name, the `_meta` keys of FORMATS.md 9.4, and the sizes `tools` compares with what was delivered. */
export interface ToolMeta {
  name: string;
  /** `_meta["anthropic/maxResultSizeChars"]` (≤ 500,000, v2.1.91+): raises the size check for this tool's text. */
  maxResultSizeChars: number | null;
  alwaysLoad: boolean | null;
  /** JS length of the server's own `description` (the unit of the 2,048 cap), null when it has none. */
  descriptionChars?: number | null;
  /** `inputSchema` as compact JSON, in chars; null when absent. */
  schemaChars?: number | null;
  /** The server the log line named (Claude Desktop's `[server]`); null or absent when the log does not say. */
  server?: string | null;
}

export const MAX_RESULT_SIZE_KEY = "anthropic/maxResultSizeChars";

/** A tool object of a tools/list response, or undefined when the value is not one. */
export function toolMetaOf(v: unknown): ToolMeta | undefined {
  if (!isObject(v) || typeof v.name !== "string") return undefined;
  const meta = isObject(v._meta) ? v._meta : {};
  const always = meta["anthropic/alwaysLoad"];
  return {
    name: v.name,
    maxResultSizeChars: num(meta[MAX_RESULT_SIZE_KEY]) ?? null,
    alwaysLoad: typeof always === "boolean" ? always : null,
    descriptionChars: typeof v.description === "string" ? v.description.length : null,
    schemaChars: schemaChars(v.inputSchema ?? v.input_schema),
  };
}

/** A schema's size as compact JSON; null when there is none (or it cannot be serialised). */
export function schemaChars(schema: unknown): number | null {
  if (schema === undefined || schema === null) return null;
  try {
    return JSON.stringify(schema)?.length ?? null;
  } catch {
    return null;
  }
}

/** Elements of any array under a `tools` key (`result.tools`, `tools`), or of a bare top-level array. */
const IN_TOOLS = (stack: Array<string | number | null>): boolean => {
  const last = stack[stack.length - 1];
  if (typeof last !== "number") return false;
  return stack.length === 1 || stack[stack.length - 2] === "tools";
};

/** One tool definition read from a tools/list response. */
export interface ToolDef {
  kind: "tool-def";
  pos: Pos;
  tool: ToolMeta;
}

export type ToolsListRecord = ToolDef | MalformedLine;

/**
 * The tools of a `tools/list` response given with `--tools FILE`: the JSON-RPC response
 * (`{"result":{"tools":[…]}}`, pretty-printed or not), a bare `{"tools":[…]}`, a bare array, or a
 * message log with one such response per line. Streamed with stream-json: one tool object is
 * assembled at a time, so a large response never sits whole in memory. The parser knows no lines, so
 * every record is at line 1; where the JSON breaks, a malformed record ends the input.
 */
export const toolsListSource: Source<ToolsListRecord> = {
  kind: "tools-list",
  // A response on its first line, or pretty-printed from a lone `{`/`[`; a log with one among other lines is a message log.
  recognise: (head) => {
    const t = head.trimStart();
    const first = (t.split("\n", 1)[0] ?? "").trim();
    return /^[[{]/.test(t) && /"tools"\s*:\s*\[/.test(first === "{" || first === "[" ? t : first);
  },
  records: toolsListRecords,
  facts: () => undefined,
};

async function* toolsListRecords(chunks: AsyncIterable<Buffer>, input: { file: string }): AsyncGenerator<ToolsListRecord> {
  // Split on lines first so a BOM and CRs are gone before the parser sees the text.
  const lines = async function* () {
    const splitter = new LineSplitter();
    const out: RawLine[] = [];
    for await (const c of chunks) {
      for (const l of splitter.push(c, out)) yield* [l.buf, NEWLINE];
      out.length = 0;
    }
    for (const l of splitter.end(out)) yield* [l.buf, NEWLINE];
  };
  const pos: Pos = { file: input.file, line: 1 };
  // A sink, not async iteration: items the parser emitted before a break are kept (a destroyed
  // readable drops its buffer). Only the small ToolMeta objects are held, never the response.
  const found: ToolDef[] = [];
  const sink = new Writable({
    objectMode: true,
    write(item: { value: unknown }, _enc, done) {
      const t = toolMetaOf(item.value);
      if (t) found.push({ kind: "tool-def", pos, tool: t });
      done();
    },
  });
  let error: string | null = null;
  try {
    await pipeline(
      Readable.from(lines()),
      parser.asStream({ jsonStreaming: true }),
      pick.asStream({ filter: IN_TOOLS }),
      streamValues.asStream(),
      sink,
    );
  } catch (e) {
    error = (e as Error).message;
  }
  yield* found;
  if (error !== null) yield { kind: "malformed", pos, reason: error, excerpt: "" };
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

/**
 * Every definition of each bare name, for the outputs join: two servers can both list `search`
 * (`mcp__a__search`, `mcp__b__search`), and a tools/list response names no server. Definitions that say
 * the same (server, annotation) are kept once, so one tools/list read twice (`--tools` and `--rpc-log`) is one.
 */
export type ToolDefsByName = Map<string, ToolMeta[]>;

export function toolDefsByName(list: Iterable<ToolMeta>): ToolDefsByName {
  const m: ToolDefsByName = new Map();
  for (const t of list) {
    const l = m.get(t.name);
    if (!l) m.set(t.name, [t]);
    else if (!l.some((o) => (o.server ?? null) === (t.server ?? null) && o.maxResultSizeChars === t.maxResultSizeChars)) l.push(t);
  }
  return m;
}
