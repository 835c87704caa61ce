import { isUtf8 } from "node:buffer";
import { DEFAULT_MAX_LINE_BYTES, type RawLine } from "../sources/lines.js";
import { giantStream, giantText, withoutNuls, type GiantLine } from "./giant-line.js";
import {
  depthExceeds,
  excerptOf,
  isObject,
  MAX_DEPTH,
  notUtf8,
  nulDamage,
  nulRuns,
  nulTailDamage,
  parseJsonBounded,
  utf8Damage,
  type JsonObject,
  type LineDamage,
} from "./json.js";
import type { Pos } from "./pos.js";
import { isRegexSpace } from "./linear-text.js";
import { decodeLines, tooLongLine, type MalformedLine, type Source } from "./source.js";
import { isoOrUndefined, parseIsoTime } from "./time.js";

/** Who sent it: client→server or server→client; null when the log does not say and the message cannot tell. */
export type RpcDir = "c2s" | "s2c" | null;

/** How the line carried the message (FORMATS.md 9.5). */
export type RpcLineFormat = "raw" | "wrapper" | "lab" | "desktop" | "prefixed";

export type RpcShape = "request" | "notification" | "result" | "error" | "invalid";

/** One JSON-RPC message from an MCP message log, whatever line format carried it. */
export interface RpcMessage {
  kind: "rpc";
  pos: Pos;
  time: string | null;
  ms: number | null;
  dir: RpcDir;
  /** The log said the direction (wrapper `dir`, Desktop `Message from`, `->`/`<-`); else it was inferred from the shape. */
  dirLogged: boolean;
  source: RpcLineFormat;
  /** Claude Desktop's `[server]`. */
  server: string | null;
  shape: RpcShape;
  method: string | null;
  id: string | number | null;
  message: JsonObject;
}

/** A line of Claude Code's own per-server log (`mcp-logs-<server>/*.jsonl`): `{"debug"|"error": text, "timestamp"}`. */
export interface RpcClientLog {
  kind: "client-log";
  pos: Pos;
  time: string | null;
  level: "debug" | "error" | "info" | "warn";
  text: string;
}

/** A line that carries no message: stderr chatter, banners. Counted, kept. */
export interface RpcNoise {
  kind: "noise";
  pos: Pos;
  excerpt: string;
  /** The line's first characters (up to 4,096), to tell what kind of file a log that holds no message is. */
  head: string;
}

export type RpcMalformed = MalformedLine;

export type RpcRecord = RpcMessage | RpcClientLog | RpcNoise | RpcMalformed;

/** Claude Desktop `mcp.log` / `mcp-server-<name>.log` (FORMATS.md 9.5); the `{ metadata: undefined }` tail is cut before parsing. */
const DESKTOP =
  /^(?<ts>\S+Z) \[(?<server>[^\]]+)\] \[(?<level>info|error|warn|debug)\] Message from (?<dir>client|server): (?<json>\{.*\})$/;
const DESKTOP_TAIL = " { metadata: undefined }";
/** Prefix words that give the direction: arrows alone, words with their colon (`Input:`). */
const ARROWS = new Set(["-->", "->", ">>", ">", "<--", "<-", "<<", "<"]);
const IO_WORDS = new Set(["input", "output", "request", "response", "sent", "received", "send", "recv", "stdin", "stdout"]);
const ISO = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?$/;
const TIME_KEYS = ["t", "ts", "time", "timestamp"] as const;
const DIR_KEYS = ["dir", "direction"] as const;
const MSG_KEYS = ["message", "msg", "data"] as const;
const CLIENT_LOG_KEYS = ["debug", "error", "info", "warn"] as const;

/** Direction words, from the server's side where the word is relative (a server log's `in` is client→server). */
const DIR_WORDS: Record<string, RpcDir> = {
  in: "c2s",
  recv: "c2s",
  received: "c2s",
  receive: "c2s",
  incoming: "c2s",
  input: "c2s",
  request: "c2s",
  c2s: "c2s",
  client: "c2s",
  "client->server": "c2s",
  "client→server": "c2s",
  from_client: "c2s",
  "from-client": "c2s",
  "->": "c2s",
  "-->": "c2s",
  ">": "c2s",
  ">>": "c2s",
  out: "s2c",
  send: "s2c",
  sent: "s2c",
  outgoing: "s2c",
  output: "s2c",
  response: "s2c",
  s2c: "s2c",
  server: "s2c",
  "server->client": "s2c",
  "server→client": "s2c",
  to_client: "s2c",
  "to-client": "s2c",
  "<-": "s2c",
  "<--": "s2c",
  "<": "s2c",
  "<<": "s2c",
  // A tap on the server's stdio: what it read came from the client.
  stdin: "c2s",
  stdout: "s2c",
};

/** Methods a server sends to its client; every other method is taken as client→server when the log does not say. */
const SERVER_METHODS =
  /^(?:roots\/list|sampling\/createMessage|elicitation\/create|notifications\/(?:message|resources\/(?:updated|list_changed)|tools\/list_changed|prompts\/list_changed|elicitation\/complete))$/;

/** Records read from a damaged line (records/json.ts LineDamage), for health; not a field of the record. */
const damagedLines = new WeakMap<object, LineDamage[]>();

/**
 * An MCP message log, line by line, in the formats of FORMATS.md 9.5 mixed in one file:
 * raw JSON-RPC, wrapper objects, the lab's `{t, method, id, _meta}` summaries of received messages,
 * Claude Desktop `mcp.log` lines, `->`/`<-`/`Input:`/`[time]` prefixes, Claude Code's per-server
 * `{"debug": …}` lines, and noise.
 */
export const rpcLogSource: Source<RpcRecord> = {
  kind: "rpc-log",
  recognise: (head) => head.split("\n").some((l) => /"jsonrpc"\s*:\s*"2\.0"|Message from (?:client|server):/.test(l)),
  records: (chunks, input) =>
    decodeLines<RpcRecord>(chunks, {
      line: (raw, out) => {
        const { recs, damage } = parseRpcLineDamage(raw, input.file);
        if (recs.length === 0) out.push({ kind: "blank", pos: { file: input.file, line: raw.line } });
        else for (const r of recs) out.push(r);
        // NULs skipped, bytes that are not UTF-8 read as U+FFFD: the line's first record says so (a batch line is one line).
        const first = recs[0];
        if (first && first.kind !== "malformed" && !raw.tooLong && !raw.streamed && !isUtf8(raw.buf)) {
          const d = notUtf8(raw.buf);
          if (d) damage.push(d);
        }
        if (first && damage.length) damagedLines.set(first, damage);
      },
      end() {},
      stream: rpcGiantStream(input.streamLineBytes ?? RPC_GIANT_BYTES),
    }),
  facts: (rec) => {
    switch (rec.kind) {
      // Noise and Claude Code's own log lines are kept and counted as records, not as unknown types.
      case "rpc":
      case "client-log":
      case "noise": {
        const damaged = damagedLines.get(rec);
        return damaged ? { damaged } : undefined;
      }
      case "malformed":
        return undefined;
      default:
        return rec satisfies never;
    }
  },
};

/**
 * One physical line → its records: one, none for a blank line, or one per message of a JSON-RPC batch
 * (`[{…},{…}]`, JSON-RPC 2.0 and the legacy MCP era), in the batch's order. Pure.
 */
export function parseRpcLine(raw: RawLine, file: string): RpcRecord[] {
  return parseRpcLineDamage(raw, file).recs;
}

/** `parseRpcLine` and what was skipped to read it: NUL runs a line starts or ends with (crash remnants, as in transcripts). */
function parseRpcLineDamage(raw: RawLine, file: string): { recs: RpcRecord[]; damage: LineDamage[] } {
  const pos: Pos = { file, line: raw.line };
  if (raw.tooLong || raw.streamed === "tooLong") return { recs: [tooLongLine(pos, raw)], damage: [] };
  if (raw.streamed) return giantRpcLine(raw.streamed as GiantLine, pos);
  let line = raw.buf.toString("utf8");
  if (line.trim() === "") return { recs: [], damage: [] };
  const damage: LineDamage[] = [];
  if (raw.buf.indexOf(0) >= 0) {
    // The NUL runs a line starts and ends with, by json.ts's rule (byte loops: linear however long the runs).
    // One byte per character in both runs, so their offsets are byte offsets.
    const runs = nulRuns(raw.buf);
    const inner = raw.buf.indexOf(0, runs.leadEnd);
    if (runs.leadEnd < raw.buf.length && (inner < 0 || inner >= runs.tailStart)) {
      if (runs.leadNuls > 0) damage.push(nulDamage(runs.leadNuls, runs.leadEnd));
      if (runs.tailNuls > 0) damage.push(nulTailDamage(runs.tailNuls, runs.tailFirstNul));
      line = line.slice(runs.leadEnd, line.length - (raw.buf.length - runs.tailStart));
    }
  }
  const recs = parseLine(pos, line);
  return { recs, damage: recs[0]?.kind === "malformed" ? [] : damage };
}

/** Lines this long are read by their first bytes (records/giant-line.ts) unless they must be parsed: a 300 MB line of noise cost 940 MB. */
export const RPC_GIANT_BYTES = 8 * 1024 * 1024;

/** Text of a giant line kept when it is not parsed: its noise excerpt needs 120 characters. */
const RPC_HEAD_BYTES = 64 * 1024;

/** Where a Claude Desktop line's message starts; a line that gets there is parsed whole. */
const DESKTOP_START = /^\S+Z \[[^\]]+\] \[(?:info|error|warn|debug)\] Message from (?:client|server): \{/;

/**
 * Whether a giant line must be held to be parsed, from its first bytes after any leading NUL run: one that
 * parseLine would JSON.parse (a `{` or `[` first, a Claude Desktop line, or a `{` after other text, which
 * prefixedLine reads from its first `{`). Any other is noise, said by its first characters, or has NULs inside,
 * said by the facts of the whole line. A `{` only past the first bytes it decides on (4 KiB of other text) is not looked
 * for: no prefix is that long, and such a line is noise.
 */
function mustParse(text: Buffer): boolean {
  if (text.length === 0) return false;
  if (text[0] === 0x7b || text[0] === 0x5b) return true;
  return text.indexOf(0x7b) >= 0 || DESKTOP_START.test(text.toString("utf8"));
}

export const rpcGiantStream = (at: number) =>
  giantStream(at, { headBytes: RPC_HEAD_BYTES, hold: mustParse, maxHold: DEFAULT_MAX_LINE_BYTES });

/** `parseRpcLineDamage` for a line read by GiantLineSink: the same verdicts from the facts it kept of the whole line. */
function giantRpcLine(g: GiantLine, pos: Pos): { recs: RpcRecord[]; damage: LineDamage[] } {
  const anyNul = g.leadNuls > 0 || g.nulAfterLead >= 0;
  if (!anyNul && g.nulWsOnly) return { recs: [], damage: [] };
  const damage: LineDamage[] = [];
  let line: string;
  if (anyNul) {
    if (g.leadEnd >= g.bytes || (g.nulAfterLead >= 0 && g.nulAfterLead < g.tailStart))
      return {
        recs: [{ kind: "malformed", pos, reason: "NUL bytes (crash remnant)", excerpt: excerptOf(withoutNuls(g)) }],
        damage: [],
      };
    if (g.leadNuls > 0) damage.push(nulDamage(g.leadNuls, g.leadEnd));
    if (g.tailNuls > 0) damage.push(nulTailDamage(g.tailNuls, g.tailFirstNul));
    line = giantText(g, g.leadEnd, g.tailStart);
  } else line = giantText(g, 0, g.bytes);
  const recs = parseLine(pos, line);
  if (recs[0] && recs[0].kind !== "malformed" && g.badUtf8 > 0) damage.push(utf8Damage(g.badUtf8, g.firstBadUtf8));
  return { recs, damage: recs[0]?.kind === "malformed" ? [] : damage };
}

/** A value that is a batch: a non-empty array of objects (`[1,2]` or `[]` is no batch of messages). */
const isBatch = (v: unknown): v is JsonObject[] => Array.isArray(v) && v.length > 0 && v.every(isObject);

function parseLine(pos: Pos, line: string): RpcRecord[] {
  if (line.includes("\u0000"))
    return [{ kind: "malformed", pos, reason: "NUL bytes (crash remnant)", excerpt: excerptOf(line.replace(/\u0000+/g, "")) }];

  const desktop = DESKTOP.exec(line.endsWith(DESKTOP_TAIL) ? line.slice(0, -DESKTOP_TAIL.length) : line);
  if (desktop) {
    const g = desktop.groups!;
    const v = parseJson(g.json!);
    if (v === TOO_DEEP) return [tooDeep(pos, line)];
    if (!isObject(v))
      return [{ kind: "malformed", pos, reason: "Claude Desktop line whose message is not a JSON object", excerpt: excerptOf(line) }];
    return [message(pos, v, { time: g.ts!, dir: g.dir === "client" ? "c2s" : "s2c", source: "desktop", server: g.server! })];
  }
  const trimmed = line.trimStart();
  // A batch line `[{"jsonrpc":"2.0",…},…]`: a `[time]` prefix cannot be told from it by the pattern alone.
  if (/^\[\s*\{/.test(trimmed)) {
    const v = parseJson(trimmed);
    if (v === TOO_DEEP) return [tooDeep(pos, line)];
    if (isBatch(v)) return batch(pos, line, v, { dir: null, time: null, prefixed: false });
  }
  if (trimmed.startsWith("{")) return objectLine(pos, line, trimmed, { dir: null, time: null, prefixed: false });
  return prefixedLine(pos, line) ?? [noise(pos, line)];
}

type Hint = { dir: RpcDir; time: string | null; prefixed: boolean };

/** A line that is a JSON value after its prefixes (none, or ones the reader knows): a message, a wrapper, a lab summary. */
function objectLine(pos: Pos, line: string, text: string, hint: Hint, parsed: unknown = parseJson(text)): RpcRecord[] {
  const v = parsed;
  if (v === TOO_DEEP) return [tooDeep(pos, line)];
  if (isBatch(v)) return batch(pos, line, v, hint);
  if (!isObject(v))
    return [{ kind: "malformed", pos, reason: v === undefined ? "invalid JSON" : "expected a JSON object", excerpt: excerptOf(line) }];
  return wrappedBatch(pos, v, hint) ?? [fromObject(pos, v, hint)];
}

/**
 * A line with text before its message (FORMATS.md 9.5: parse from the first `{` to the end of the line, or from
 * the `[` of a batch just before it). Prefixes the reader knows, in any number and order (`[time]`, an ISO time,
 * `->`/`<-`, `Input:`/`Output:`), read as they always did; after other text the line is a message only when
 * what follows is JSON-RPC, with the time and direction the known words before it give. Null: no message here.
 * One scan of the line (indexOf and the prefix's words), so linear in its length whatever it holds.
 */
function prefixedLine(pos: Pos, line: string): RpcRecord[] | null {
  const brace = line.indexOf("{");
  if (brace < 0) return null;
  let open = brace - 1;
  while (open >= 0 && isRegexSpace(line.charCodeAt(open))) open -= 1;
  // A batch `[{…}]` starts at the `[` before the brace; a `[` that starts none (`[[…{`, a bracket word) is prefix.
  if (open >= 0 && line.charCodeAt(open) === 0x5b) {
    const text = line.slice(open);
    const v = parseJson(text);
    if (isBatch(v)) return fromPrefix(pos, line, open, text, v);
  }
  return fromPrefix(pos, line, brace, line.slice(brace), undefined);
}

/** The records of the JSON value at `start` (parsed already, or not yet), read with the hints of the text before it. */
function fromPrefix(pos: Pos, line: string, start: number, text: string, parsed: unknown): RpcRecord[] | null {
  const p = prefixHints(line.slice(0, start));
  const hint: Hint = { dir: p.dir, time: p.time, prefixed: true };
  if (p.known) return objectLine(pos, line, text, hint, parsed === undefined ? parseJson(text) : parsed);
  if (parsed === undefined && !text.includes('"jsonrpc"')) return null;
  const v = parsed === undefined ? parseJson(text) : parsed;
  if (v === TOO_DEEP) return [tooDeep(pos, line)];
  const recs = isBatch(v) ? batch(pos, line, v, hint) : isObject(v) ? (wrappedBatch(pos, v, hint) ?? [fromObject(pos, v, hint)]) : [];
  return recs.some((r) => r.kind === "rpc" && r.message.jsonrpc === "2.0") ? recs : null;
}

/** The longest word a prefix's time or direction can be; longer words are other text (and no regex runs over them). */
const MAX_HINT_WORD = 40;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The time and direction the text before a message gives, and whether every word of it is a prefix the reader
 * knows: `[anything]` (a time when it holds one), an ISO time (`2026-09-30T09:15:00Z`, or date and time apart),
 * an arrow, a direction word with its colon. Linear: each character is looked at a bounded number of times.
 */
function prefixHints(pre: string): { dir: RpcDir; time: string | null; known: boolean } {
  let dir: RpcDir = null;
  let time: string | null = null;
  let known = true;
  const words: string[] = [];
  for (let i = 0; i < pre.length;) {
    const c = pre.charCodeAt(i);
    if (isRegexSpace(c)) {
      i += 1;
      continue;
    }
    if (c === 0x5b) {
      const close = pre.indexOf("]", i + 1);
      if (close < 0) {
        known = false;
        break;
      }
      if (close - i - 1 <= MAX_HINT_WORD) {
        const inner = pre.slice(i + 1, close).trim();
        if (time === null && ISO.test(inner)) time = inner;
      }
      i = close + 1;
      continue;
    }
    let j = i;
    while (j < pre.length && !isRegexSpace(pre.charCodeAt(j)) && pre.charCodeAt(j) !== 0x5b) j += 1;
    words.push(pre.slice(i, j));
    i = j;
  }
  for (let k = 0; k < words.length; k++) {
    const w = words[k]!;
    const word = w.endsWith(":") ? w.slice(0, -1).toLowerCase() : null;
    if (ARROWS.has(w) || (word !== null && IO_WORDS.has(word))) {
      dir ??= DIR_WORDS[word ?? w] ?? null;
      continue;
    }
    if (w.length <= MAX_HINT_WORD && ISO.test(w)) {
      time ??= w;
      continue;
    }
    const next = words[k + 1];
    if (next !== undefined && DATE.test(w) && next.length <= MAX_HINT_WORD && ISO.test(`${w} ${next}`)) {
      time ??= `${w} ${next}`;
      k += 1;
      continue;
    }
    known = false;
  }
  return { dir, time, known };
}

const noise = (pos: Pos, text: string): RpcNoise => ({ kind: "noise", pos, excerpt: excerptOf(text), head: text.slice(0, 4096) });

/** A batch's elements in order; an array that holds no message at all is one line of noise, as before. */
function batch(pos: Pos, line: string, elems: JsonObject[], hint: Hint): RpcRecord[] {
  const recs = elems.map((m) => fromObject(pos, m, hint));
  return recs.some((r) => r.kind !== "noise") ? recs : [noise(pos, line)];
}

/** A wrapper whose `message` (or `msg`, `data`) is a batch: one message per element, with the wrapper's time and direction. */
function wrappedBatch(pos: Pos, v: JsonObject, hint: { dir: RpcDir; time: string | null }): RpcRecord[] | null {
  if (isRpc(v)) return null;
  for (const k of MSG_KEYS) {
    const inner = typeof v[k] === "string" ? parseJson(v[k] as string) : v[k];
    if (isBatch(inner) && inner.some(isRpc))
      return inner.map((m) =>
        isRpc(m)
          ? message(pos, m, { time: timeOf(v) ?? hint.time, dir: dirOf(v) ?? hint.dir, source: "wrapper" })
          : noise(pos, JSON.stringify(m)),
      );
  }
  return null;
}

function fromObject(pos: Pos, v: JsonObject, hint: Hint): RpcRecord {
  const wrapped = TIME_KEYS.some((k) => k in v) || DIR_KEYS.some((k) => k in v);
  if (isRpc(v)) {
    const source: RpcLineFormat = hint.prefixed ? "prefixed" : wrapped ? "wrapper" : "raw";
    return message(pos, wrapped ? unwrap(v) : v, { time: hint.time ?? timeOf(v), dir: hint.dir ?? dirOf(v), source });
  }
  for (const k of MSG_KEYS) {
    const inner = typeof v[k] === "string" ? parseJson(v[k] as string) : v[k];
    if (isObject(inner) && isRpc(inner))
      return message(pos, inner, { time: timeOf(v) ?? hint.time, dir: dirOf(v) ?? hint.dir, source: "wrapper" });
  }
  if (typeof v.method === "string" || (v.id !== undefined && ("result" in v || "error" in v))) {
    // Fields inline beside the time: a lab summary `{t, method, id, _meta}` (received messages only) or a wrapper without `message`.
    const lab = !("jsonrpc" in v) && !("params" in v) && TIME_KEYS.some((k) => k in v);
    const inner = unwrap(v);
    delete inner._meta;
    if (isObject(v._meta)) inner.params = { ...(isObject(inner.params) ? inner.params : {}), _meta: v._meta };
    const dir = dirOf(v) ?? hint.dir ?? (lab ? "c2s" : null);
    return message(pos, inner, { time: timeOf(v) ?? hint.time, dir, source: lab ? "lab" : "wrapper" });
  }
  for (const k of CLIENT_LOG_KEYS) {
    if (typeof v[k] === "string") return { kind: "client-log", pos, time: timeOf(v), level: k, text: v[k] as string };
  }
  return noise(pos, JSON.stringify(v));
}

function message(pos: Pos, m: JsonObject, o: { time: string | null; dir: RpcDir; source: RpcLineFormat; server?: string }): RpcMessage {
  const method = typeof m.method === "string" ? m.method : null;
  const id = typeof m.id === "string" || typeof m.id === "number" ? m.id : null;
  const shape: RpcShape =
    method !== null ? (id !== null ? "request" : "notification") : "error" in m ? "error" : "result" in m ? "result" : "invalid";
  const logged = o.dir !== null;
  const dir =
    o.dir ?? (method !== null ? (SERVER_METHODS.test(method) ? "s2c" : "c2s") : shape === "result" || shape === "error" ? "s2c" : null);
  // A time no Date can hold is unknown, text and ms alike, so nothing downstream trips on it.
  const ms = o.time === null ? undefined : parseIsoTime(o.time);
  return {
    kind: "rpc",
    pos,
    time: ms === undefined ? null : o.time,
    ms: ms ?? null,
    dir,
    dirLogged: logged,
    source: o.source,
    server: o.server ?? null,
    shape,
    method,
    id,
    message: m,
  };
}

/** The message without the wrapper's time and direction keys. */
function unwrap(v: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v))
    if (!(TIME_KEYS as readonly string[]).includes(k) && !(DIR_KEYS as readonly string[]).includes(k)) out[k] = x;
  return out;
}

function isRpc(v: JsonObject): boolean {
  return v.jsonrpc === "2.0" && (typeof v.method === "string" || "result" in v || "error" in v);
}

function timeOf(v: JsonObject): string | null {
  for (const k of TIME_KEYS) {
    const x = v[k];
    if (typeof x === "string" && ISO.test(x)) return x;
    if (typeof x === "number" && x > 1e11) {
      const iso = isoOrUndefined(x);
      if (iso !== undefined) return iso;
    }
  }
  return null;
}

function dirOf(v: JsonObject): RpcDir {
  for (const k of DIR_KEYS) {
    const x = v[k];
    // Own keys only: the word is evidence text (`constructor` is no direction).
    if (typeof x === "string") return Object.hasOwn(DIR_WORDS, x.toLowerCase()) ? DIR_WORDS[x.toLowerCase()]! : null;
  }
  return null;
}

/** What parseJson gives for a value nested deeper than MAX_DEPTH: kept as malformed, never walked (a stack overflow). */
const TOO_DEEP: unique symbol = Symbol("too deep");

function parseJson(text: string): unknown {
  try {
    const v: unknown = parseJsonBounded(text, TOO_DEEP);
    return typeof v === "object" && v !== null && depthExceeds(v, MAX_DEPTH) ? TOO_DEEP : v;
  } catch {
    return undefined;
  }
}

const tooDeep = (pos: Pos, line: string): RpcRecord => ({
  kind: "malformed",
  pos,
  reason: `nested deeper than ${MAX_DEPTH} levels`,
  excerpt: excerptOf(line.slice(0, 480)),
});
