import { splitJson } from "./json-split.js";
import { bomAt, nulDamage, nulTailDamage, parseLine, type JsonObject, type LineDamage } from "./json.js";
import type { Pos } from "./pos.js";
import { decodeLines, type BlankLine, type MalformedLine, type Source } from "./source.js";
import { toHeadlessInit, toHeadlessResult, type HeadlessInit, type HeadlessResult } from "./streamjson-messages.js";
import type { InvalidValue } from "./values.js";

export {
  modelRoles,
  type ModelUsage,
  type HeadlessInit,
  type HeadlessResult,
  type HeadlessUsage,
  type McpServerStatus,
} from "./streamjson-messages.js";

/**
 * How a headless run's (`claude -p`) output is laid out (FORMATS.md 8): NDJSON lines from `--output-format
 * stream-json --verbose` (and the one line of `json`), the JSON array of every message of `json --verbose`,
 * or a pretty-printed object (someone ran it through `jq .`).
 */
export type HeadlessLayout = "lines" | "array" | "values";

/** One message a headless run printed; `key` is `system/<subtype>` for system messages, else the type. */
export interface HeadlessEvent {
  kind: "event";
  pos: Pos;
  type: string;
  key: string;
  raw: JsonObject;
  layout: HeadlessLayout;
  /** The `system/init` event, parsed. */
  init?: HeadlessInit;
  /** The `result` message, parsed; its counts are checked like transcript usage. */
  result?: HeadlessResult;
  invalid: InvalidValue[];
}

export type HeadlessMalformed = MalformedLine & { layout: HeadlessLayout };
export type HeadlessRecord = HeadlessEvent | HeadlessMalformed;

export const KNOWN_TYPES: ReadonlySet<string> = new Set([
  "system",
  "assistant",
  "user",
  "result",
  "stream_event",
  "tool_progress",
  "auth_status",
  "keep_alive",
  "control_request",
  "control_response",
]);

function event(m: JsonObject, pos: Pos, layout: HeadlessLayout): HeadlessEvent {
  const type = typeof m.type === "string" ? m.type : "(none)";
  const key = type === "system" && typeof m.subtype === "string" ? `system/${m.subtype}` : type;
  const invalid: InvalidValue[] = [];
  const ev: HeadlessEvent = { kind: "event", pos, type, key, raw: m, layout, invalid };
  if (key === "system/init") ev.init = toHeadlessInit(m, pos);
  else if (type === "result") ev.result = toHeadlessResult(m, pos, invalid);
  return ev;
}

/**
 * `claude -p` output, never held whole: NDJSON line by line; a JSON array (or pretty-printed objects) split
 * by its own structure (json-split.ts), each element with the line it starts on and its byte offset, a tear
 * one malformed entry. An empty (or whitespace-only) output yields no record: the commands warn of it
 * (analyses/headless-run.ts `headlessEmpty`), it is no malformed line.
 */
export const headlessSource: Source<HeadlessRecord> = {
  kind: "stream-json",
  recognise: (head) => /^\s*[[{]/.test(head) && /"type"\s*:\s*"(?:system|result|assistant)"/.test(head),
  records: headlessRecords,
  facts: (rec) => {
    switch (rec.kind) {
      case "event":
        return { unknownType: KNOWN_TYPES.has(rec.type) ? undefined : rec.type, invalid: rec.invalid, damaged: damagedLines.get(rec) };
      case "malformed":
        return undefined;
      default:
        return rec satisfies never;
    }
  },
};

async function* headlessRecords(chunks: AsyncIterable<Buffer>, input: { file: string }): AsyncGenerator<HeadlessRecord | BlankLine> {
  // Sniff the layout from the first bytes; iterate by hand, since breaking a for-await would close `chunks`.
  const it = chunks[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let layout: HeadlessLayout | null = null;
  // While every chunk is whitespace and NULs (a long crash remnant), another such chunk decides nothing: not
  // copied together again for each.
  let blank = true;
  while (layout === null) {
    const next = await it.next();
    if (next.done) break;
    head.push(next.value);
    if (blank && head.length > 1 && next.value.every(isBlank)) continue;
    blank = head.length === 1 && next.value.every(isBlank);
    layout = sniff(head.length === 1 ? next.value : Buffer.concat(head));
  }
  const rest = async function* () {
    yield* head;
    for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
  };
  // Whitespace only, or too short to tell: line mode reports what is there.
  if (layout === null || layout === "lines") yield* decodeLines(rest(), ndjsonDecoder(input.file));
  else yield* streamed(rest(), input.file, layout);
}

/** Events read from a damaged line (records/json.ts LineDamage), for health; not a field of the event. */
const damagedLines = new WeakMap<object, LineDamage[]>();

function ndjsonDecoder(file: string) {
  return {
    line(raw: Parameters<typeof parseLine>[0], out: Array<HeadlessRecord | BlankLine>) {
      const pos: Pos = { file, line: raw.line };
      const parsed = parseLine(raw);
      if (parsed.ok === "blank") out.push({ kind: "blank", pos });
      else if (parsed.ok) {
        const ev = event(parsed.value, pos, "lines");
        if (parsed.damage) damagedLines.set(ev, parsed.damage);
        out.push(ev);
      } else out.push({ kind: "malformed", pos, reason: parsed.reason, excerpt: parsed.excerpt, layout: "lines" });
    },
    end() {},
  };
}

const isBlank = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0;

/** Decides the layout from the start of the input, or null when more bytes are needed. */
function sniff(buf: Buffer): HeadlessLayout | null {
  let i = 0;
  // A BOM split across the first chunks: wait for the rest of it.
  const bom = bomAt(buf);
  if (bom === "partial") return null;
  if (bom) i = 3;
  // A NUL run before the value (a crash remnant; records/json.ts nulRuns) is skipped, whitespace among it.
  while (i < buf.length && isBlank(buf[i]!)) i++;
  if (i >= buf.length) return null;
  if (buf[i] === 0x5b) return "array";
  if (buf[i] !== 0x7b) return "lines";
  const nl = buf.indexOf(0x0a, i);
  if (nl < 0) return buf.length > 64 ? "lines" : null;
  return buf
    .subarray(i + 1, nl)
    .toString("utf8")
    .trim() === ""
    ? "values"
    : "lines";
}

async function* streamed(chunks: AsyncIterable<Buffer>, file: string, layout: "array" | "values"): AsyncGenerator<HeadlessRecord> {
  // Never nothing at all: the layout was sniffed from a "[" or "{", so an input with no value is "[]".
  // A NUL run outside the values (a crash remnant) is damage of the event next to it: one before a value goes
  // with that value, one after the last with the last. So each event is handed on only once the next item came.
  let held: HeadlessRecord | null = null;
  let before: LineDamage[] = [];
  const damage = (ev: HeadlessEvent, ds: readonly LineDamage[]) => {
    if (ds.length) damagedLines.set(ev, [...(damagedLines.get(ev) ?? []), ...ds]);
  };
  for await (const item of splitJson(chunks, layout)) {
    if (item.kind === "nul") {
      const d: LineDamage = {
        ...(item.trailing ? nulTailDamage(item.nuls, item.first) : nulDamage(item.nuls, item.end)),
        line: item.line,
      };
      if (item.trailing && held?.kind === "event") damage(held, [d]);
      else before.push(d);
      continue;
    }
    if (held) yield held;
    held = null;
    if (item.kind === "tear") {
      yield { kind: "malformed", pos: { file, line: item.line }, reason: item.reason, excerpt: item.excerpt, layout };
      continue;
    }
    const pos: Pos = { file, line: item.line };
    // An element is checked as a line is: NULs, bytes that are not UTF-8, nesting, an object at all.
    const parsed = parseLine({ line: item.line, buf: item.buf, bytes: item.bytes, tooLong: item.tooLong, unterminated: false });
    // Its byte positions count from its own first byte: said with where it starts in the file, as a malformed one is.
    const what = `${layout === "array" ? "element" : "value"} ${item.index} (from byte ${item.offset + 1})`;
    if (parsed.ok === true) {
      const ev = event(parsed.value, pos, layout);
      damage(ev, before);
      before = [];
      if (parsed.damage)
        damage(
          ev,
          parsed.damage.map((d) => ({ ...d, reason: `${what}: ${d.reason}` })),
        );
      held = ev;
    } else {
      const reason = parsed.ok === "blank" ? "empty" : parsed.reason.replace(/^line of (\d+) bytes is/, "$1 bytes,");
      yield { kind: "malformed", pos, reason: `${what}: ${reason}`, excerpt: parsed.ok === "blank" ? "" : parsed.excerpt, layout };
    }
  }
  if (held) yield held;
}
