import { Readable } from "node:stream";
import streamArray from "stream-json/streamers/stream-array.js";
import streamValues from "stream-json/streamers/stream-values.js";
import { addInvalid, countRecord, emptyHealth, type Health } from "../analyses/health.js";
import { readChunks, type InputFile, type ReadOptions } from "../sources/input.js";
import { LineSplitter, type RawLine } from "../sources/lines.js";
import { excerptOf, isObject, parseLine, type JsonObject } from "./json.js";
import type { Pos } from "./pos.js";
import { toRunInit, toRunResult, type RunInit, type RunResult } from "./streamjson-messages.js";
import type { InvalidValue } from "./values.js";

export { modelRoles, type ModelUsage, type RunInit, type RunResult, type RunUsage, type McpServerStatus } from "./streamjson-messages.js";

/**
 * How the `claude -p` output was written (FORMATS.md 8): NDJSON from `--output-format stream-json
 * --verbose`, the single result object of `--output-format json`, the JSON array of every message of
 * `json --verbose`, or a pretty-printed object (someone ran it through `jq .`).
 */
export type RunFormat = "stream-json" | "json" | "json-array" | "json-pretty" | "empty";

/** What a `claude -p` run printed: its init event(s), its result, and counts of the rest. */
export interface ClaudeRun {
  file: string;
  format: RunFormat;
  /** The first `system/init` event; `inits` has every one (one per turn). */
  init: RunInit | null;
  inits: RunInit[];
  /** The last `result` message; `results` has every one. */
  result: RunResult | null;
  results: RunResult[];
  /** `assistant` events: one per content block, so several per API response. */
  assistantMessages: number;
  /** Distinct `message.id`s among them: the API responses. */
  apiResponses: number;
  userMessages: number;
  /** Messages per `type` (`system/<subtype>` for system messages). */
  types: Record<string, number>;
  health: Health;
}

const KNOWN_TYPES = new Set(["system", "assistant", "user", "result", "stream_event", "tool_progress", "auth_status", "keep_alive", "control_request", "control_response"]);

/** The session id a run names: from its init event, else its result. Use it to find the transcript. */
export function runSessionId(run: ClaudeRun): string | null {
  return run.init?.sessionId ?? run.result?.sessionId ?? null;
}

/**
 * Reads `claude -p` output without holding the file: NDJSON line by line; a JSON array (or a
 * pretty-printed object) through stream-json's streaming parser. Bad lines are counted in `health`.
 */
export async function readClaudeRun(input: InputFile, opts: ReadOptions = {}): Promise<ClaudeRun> {
  const acc = new RunAccumulator(input.path);
  const chunks = readChunks(input, opts);
  // Sniff the format from the first bytes; iterate by hand, since breaking a for-await would close `chunks`.
  const head: Buffer[] = [];
  let mode: "lines" | "array" | "values" | null = null;
  while (mode === null) {
    const next = await chunks.next();
    if (next.done) break;
    head.push(next.value);
    mode = sniff(head.length === 1 ? next.value : Buffer.concat(head));
  }
  const rest = async function* () {
    yield* head;
    yield* chunks;
  };
  // Whitespace only, or too short to tell: line mode reports what is there.
  mode ??= "lines";
  if (mode === "lines") await readNdjson(rest(), acc);
  else await readStreamed(rest(), acc, mode);
  return acc.finish(mode === "array" ? "json-array" : mode === "values" ? "json-pretty" : undefined);
}

/** Decides the format from the start of the input, or null when more bytes are needed. */
function sniff(buf: Buffer): "lines" | "array" | "values" | null {
  let i = 0;
  if (buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) i = 3;
  while (i < buf.length && (buf[i] === 0x20 || buf[i] === 0x0a || buf[i] === 0x0d || buf[i] === 0x09)) i++;
  if (i >= buf.length) return null;
  if (buf[i] === 0x5b) return "array";
  if (buf[i] !== 0x7b) return "lines";
  const nl = buf.indexOf(0x0a, i);
  if (nl < 0) return buf.length > 64 ? "lines" : null;
  return buf.subarray(i + 1, nl).toString("utf8").trim() === "" ? "values" : "lines";
}

async function readNdjson(chunks: AsyncIterable<Buffer>, acc: RunAccumulator): Promise<void> {
  const splitter = new LineSplitter();
  const out: RawLine[] = [];
  const take = () => {
    for (const raw of out) acc.line(raw);
    out.length = 0;
  };
  for await (const chunk of chunks) {
    splitter.push(chunk, out);
    take();
  }
  splitter.end(out);
  take();
}

async function readStreamed(chunks: AsyncIterable<Buffer>, acc: RunAccumulator, mode: "array" | "values"): Promise<void> {
  const parser = mode === "array" ? streamArray.withParserAsStream() : streamValues.withParserAsStream();
  const source = Readable.from(countingLines(chunks, acc.health));
  source.on("error", (e) => parser.destroy(e));
  source.pipe(parser);
  const pos: Pos = { file: acc.file, line: 1 };
  try {
    for await (const item of parser as AsyncIterable<{ key: number; value: unknown }>) {
      if (isObject(item.value)) acc.message(item.value, pos);
      else acc.malformed(pos, `element ${item.key} is not a JSON object`, excerptOf(JSON.stringify(item.value) ?? ""));
    }
  } catch (err) {
    acc.malformed(pos, `${mode === "array" ? "JSON array" : "JSON value"} stops being valid JSON (${(err as Error).message})`, "");
  }
}

/** Physical lines of a streamed input, counted on the bytes as they pass (the parser knows none). */
async function* countingLines(chunks: AsyncIterable<Buffer>, health: Health): AsyncGenerator<Buffer> {
  let last = 0x0a;
  for await (const c of chunks) {
    for (let i = c.indexOf(0x0a); i >= 0; i = c.indexOf(0x0a, i + 1)) health.lines += 1;
    if (c.length > 0) last = c[c.length - 1]!;
    yield c;
  }
  if (last !== 0x0a) health.lines += 1;
}

class RunAccumulator {
  readonly health: Health = emptyHealth();
  private readonly inits: RunInit[] = [];
  private readonly results: RunResult[] = [];
  private readonly types: Record<string, number> = {};
  private readonly messageIds = new Set<string>();
  private assistant = 0;
  private user = 0;
  private count = 0;

  constructor(readonly file: string) {}

  line(raw: RawLine): void {
    this.health.lines += 1;
    const pos: Pos = { file: this.file, line: raw.line };
    const parsed = parseLine(raw);
    if (parsed.ok === "blank") this.health.blankLines += 1;
    else if (parsed.ok) this.message(parsed.value, pos);
    else this.malformed(pos, parsed.reason, parsed.excerpt);
  }

  message(m: JsonObject, pos: Pos): void {
    this.count += 1;
    const type = typeof m.type === "string" ? m.type : "(none)";
    const key = type === "system" && typeof m.subtype === "string" ? `system/${m.subtype}` : type;
    this.types[key] = (this.types[key] ?? 0) + 1;
    this.health.records += 1;
    if (!KNOWN_TYPES.has(type)) this.health.unknownTypes[type] = (this.health.unknownTypes[type] ?? 0) + 1;
    if (key === "system/init") this.inits.push(toRunInit(m, pos));
    else if (type === "result") {
      const invalid: InvalidValue[] = [];
      this.results.push(toRunResult(m, pos, invalid));
      if (invalid.length) addInvalid(this.health, invalid.map((v) => ({ file: pos.file, line: pos.line, ...v })));
    }
    else if (type === "assistant") {
      this.assistant += 1;
      const id = isObject(m.message) && typeof m.message.id === "string" ? m.message.id : null;
      if (id) this.messageIds.add(id);
    } else if (type === "user") this.user += 1;
  }

  malformed(pos: Pos, reason: string, excerpt: string): void {
    countRecord(this.health, { kind: "malformed", pos, chain: "run", reason, excerpt });
  }

  finish(streamedFormat: RunFormat | undefined): ClaudeRun {
    const onlyResult = this.count === 1 && this.results.length === 1;
    const format: RunFormat = streamedFormat ?? (this.count === 0 ? "empty" : onlyResult ? "json" : "stream-json");
    return {
      file: this.file,
      format,
      init: this.inits[0] ?? null,
      inits: this.inits,
      result: this.results[this.results.length - 1] ?? null,
      results: this.results,
      assistantMessages: this.assistant,
      apiResponses: this.messageIds.size,
      userMessages: this.user,
      types: this.types,
      health: this.health,
    };
  }
}
