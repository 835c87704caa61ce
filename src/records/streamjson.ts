import { splitJson } from "./json-split.js";
import type { RawLine } from "../sources/lines.js";
import {
  bomAt,
  MAX_DEPTH,
  nulDamage,
  nulRuns,
  nulTailDamage,
  parseLine,
  type JsonObject,
  type LineDamage,
  type ParsedLine,
} from "./json.js";
import { allZeros, nulWsRun, skipZeros } from "./nul-scan.js";
import { StreamScanner, type ScannedLine } from "./stream-scan.js";
import { STREAM_LINE_BYTES } from "./transcript-source.js";
import type { Pos } from "./pos.js";
import { decodeLines, pastCrashRemnant, type BlankLine, type DamageNote, type MalformedLine, type Source } from "./source.js";
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
  // A crash's NUL run may open the output, before the array or the first line (the readers skip it too). Every
  // claude -p message names its session as `session_id`: a transcript's records stripped of their envelope
  // (`{"type":"assistant","message":…}`, as tests write them) are not taken for claude -p output.
  recognise: (head) => {
    const h = pastCrashRemnant(head);
    return /^\s*[[{]/.test(h) && /"type"\s*:\s*"(?:system|result|assistant)"/.test(h) && /"session_id"\s*:/.test(h);
  },
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

async function* headlessRecords(
  chunks: AsyncIterable<Buffer>,
  input: { file: string; streamLineBytes?: number },
): AsyncGenerator<HeadlessRecord | BlankLine | DamageNote> {
  // Sniff the layout from the first bytes; iterate by hand, since breaking a for-await would close `chunks`.
  const it = chunks[Symbol.asyncIterator]();
  // A chunk of zeros only (a long crash remnant) is held as its length, not its bytes: 300 MB of NULs held 300 MB.
  const head: Array<Buffer | number> = [];
  let layout: HeadlessLayout | null = null;
  // While every chunk is whitespace and NULs (a long crash remnant), another such chunk decides nothing: not
  // copied together again for each.
  let blank = true;
  let joined: Buffer | null = null;
  while (layout === null) {
    const next = await it.next();
    if (next.done) break;
    const c = next.value;
    if (blank && head.length > 0 && allBlank(c)) {
      head.push(allZeros(c) ? c.length : c);
      continue;
    }
    blank = head.length === 0 && allBlank(c);
    head.push(c);
    // The chunks of zeros before are blank (and the BOM is in the first chunk, before them): the sniff reads the
    // ones after the last of them.
    let runs = head.length - 1;
    while (runs >= 0 && typeof head[runs] !== "number") runs--;
    const tail = head.slice(runs + 1) as Buffer[];
    joined = tail.length === 1 ? tail[0]! : Buffer.concat(tail);
    // A BOM's bytes after the run are no BOM: not "[" or "{", so lines.
    layout = runs >= 0 && bomAt(joined) !== false ? "lines" : sniff(joined);
    // The sniff's copy stands for the pieces it was made of: they are not held beside it.
    if (tail.length > 1) head.splice(runs + 1, tail.length, joined);
  }
  const rest = async function* () {
    for (const h of head) {
      if (typeof h !== "number") yield h;
      else for (let n = h; n > 0; n -= ZERO_CHUNK.length) yield ZERO_CHUNK.subarray(0, Math.min(n, ZERO_CHUNK.length));
    }
    head.length = 0;
    for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
  };
  // Whitespace only, or too short to tell: line mode reports what is there.
  if (layout === null) yield* decodeLines(rest(), ndjsonDecoder(input.file, undefined, input.streamLineBytes));
  else if (layout === "lines") {
    // A crash's NUL run before the first line (on lines of its own, or before the record on its line) is one
    // damage entry, as before an array's "[": its lines are no records (blank or malformed), the record after it is read.
    const lead = leadingRun(head);
    yield* decodeLines(rest(), ndjsonDecoder(input.file, lead ?? undefined, input.streamLineBytes));
  } else yield* streamed(rest(), input.file, layout);
}

/** Shared zeros the held runs are given back as (never written to; readers copy what they keep). */
const ZERO_CHUNK = Buffer.alloc(1 << 20);
const allBlank = (c: Buffer) => nulWsRun(c, 0).end === c.length;

/** A NUL run (whitespace among it) that opens line-mode output: its damage, and the lines it spans. */
interface LeadingRun {
  damage: LineDamage;
  /** Lines `fromLine` to `toLine - 1` are the run's own; `toLine` holds the first record. */
  fromLine: number;
  toLine: number;
}

function leadingRun(head: ReadonlyArray<Buffer | number>): LeadingRun | null {
  // Byte positions count without a BOM, as a line's do (sources/lines.ts cuts it from the first line).
  const first = head[0];
  const bom = typeof first !== "number" && first !== undefined && bomAt(first) === true ? 3 : 0;
  let nuls = 0;
  let lfs = 0;
  let fromLine = 0;
  let at = 0;
  for (const [n, h] of head.entries()) {
    if (typeof h === "number") {
      if (nuls === 0) fromLine = lfs + 1;
      nuls += h;
      at += h;
      continue;
    }
    let i = n === 0 ? bom : 0;
    while (i < h.length) {
      const b = h[i]!;
      if (b === 0) {
        if (nuls === 0) fromLine = lfs + 1;
        const j = skipZeros(h, i);
        nuls += j - i;
        i = j;
      } else if (isBlank(b)) {
        if (b === 0x0a) lfs++;
        i++;
      } else break;
    }
    at += i;
    if (i < h.length) {
      if (nuls === 0) return null;
      return { damage: { ...nulDamage(nuls, at - bom), line: fromLine }, fromLine, toLine: lfs + 1 };
    }
  }
  return null;
}

/** The first record's line with the run's NULs before it read as spaces (a copy: the chunk is not changed), so they are not said twice. */
function pastRun(raw: RawLine): RawLine {
  const lead = nulRuns(raw.buf);
  if (lead.leadNuls === 0) return raw;
  const buf = Buffer.from(raw.buf);
  for (let j = 0; j < lead.leadEnd; j++) if (buf[j] === 0) buf[j] = 0x20;
  return { ...raw, buf };
}

/** Events read from a damaged line (records/json.ts LineDamage), for health; not a field of the event. */
const damagedLines = new WeakMap<object, LineDamage[]>();

function ndjsonDecoder(file: string, lead?: LeadingRun, streamAt = STREAM_LINE_BYTES) {
  return {
    line(raw: Parameters<typeof parseLine>[0], out: Array<HeadlessRecord | BlankLine | DamageNote>) {
      const pos: Pos = { file, line: raw.line };
      // The lines of the leading NUL run are no records, blank or malformed: the run is one damage entry.
      if (lead && raw.line >= lead.fromLine && raw.line < lead.toLine) return;
      // A line past `streamAt` was scanned as it streamed (records/stream-scan.ts), as a transcript's is: a 300 MB
      // line of NULs or of text is never held.
      const scanned = raw.streamed as ScannedLine | undefined;
      const parsed: ParsedLine = scanned
        ? lead && raw.line === lead.toLine
          ? withoutLeadRun(scanned.parsed)
          : scanned.parsed
        : parseLine(lead && raw.line === lead.toLine ? pastRun(raw) : raw);
      if (parsed.ok === "blank") {
        out.push({ kind: "blank", pos });
        return;
      }
      // The leading NUL run goes with the first record when it is an event, else it is said on its own before it.
      const before = lead ? [lead.damage] : [];
      lead = undefined;
      if (parsed.ok) {
        const ev = event(parsed.value, pos, "lines");
        if (parsed.damage || before.length) damagedLines.set(ev, [...before, ...(parsed.damage ?? [])]);
        out.push(ev);
        return;
      }
      if (before.length) out.push({ kind: "damage", pos: { file, line: before[0]!.line! }, damage: before });
      out.push({ kind: "malformed", pos, reason: parsed.reason, excerpt: parsed.excerpt, layout: "lines" });
    },
    end() {},
    stream: { at: streamAt, open: (_line: number, offset: number) => new StreamScanner({ file, offset, maxDepth: MAX_DEPTH }) },
  };
}

/** A scanned first record's verdict without the leading run, which is said once on its own (as `pastRun` does for a held line). */
function withoutLeadRun(p: ParsedLine): ParsedLine {
  if (p.ok === true) {
    const damage = p.damage?.filter((d) => !/ NUL bytes? before byte \d+ \(crash remnant\), skipped$/.test(d.reason));
    return damage?.length ? { ...p, damage } : { ok: true, value: p.value };
  }
  if (p.ok === false) return { ...p, reason: p.reason.replace(/^\d+ NUL bytes? before byte \d+ \(crash remnant\), then /, "") };
  return p;
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

async function* streamed(
  chunks: AsyncIterable<Buffer>,
  file: string,
  layout: "array" | "values",
): AsyncGenerator<HeadlessRecord | DamageNote> {
  // Never nothing at all: the layout was sniffed from a "[" or "{", so an input with no value is "[]".
  // A NUL run outside the values (a crash remnant) is damage of the event next to it: one before a value goes
  // with that value, one after the last with the last. So each event is handed on only once the next item came.
  // With no event to carry it (`[]`, a malformed last element) the run is damage of its own (DamageNote).
  let held: HeadlessRecord | null = null;
  let before: LineDamage[] = [];
  const damage = (ev: HeadlessEvent, ds: readonly LineDamage[]) => {
    if (ds.length) damagedLines.set(ev, [...(damagedLines.get(ev) ?? []), ...ds]);
  };
  const note = (ds: readonly LineDamage[]): DamageNote => ({ kind: "damage", pos: { file, line: ds[0]!.line ?? 1 }, damage: ds });
  for await (const item of splitJson(chunks, layout)) {
    if (item.kind === "nul") {
      const d: LineDamage = {
        ...(item.trailing ? nulTailDamage(item.nuls, item.first) : nulDamage(item.nuls, item.end)),
        line: item.line,
      };
      if (!item.trailing) before.push(d);
      else if (held?.kind === "event") damage(held, [d]);
      else {
        // After "]" or the last value, and no event before it to carry it: said on its own, in file order.
        if (held) yield held;
        held = null;
        if (before.length) yield note(before);
        before = [];
        yield note([d]);
      }
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
  // A run before the "[" (or a value) that no event came after: `[]`, or only malformed elements.
  if (before.length) yield note(before);
}
