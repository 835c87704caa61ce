import { setOwn } from "../records/counts.js";
import { codePoints, imageCount, utf8Bytes, visibleText } from "../records/content.js";
import { isStringAt, lazyOf } from "../records/lazy-strings.js";
import { headOf, tailOf, type TextStats } from "../records/string-bytes.js";
import { arr, isObject, num, str, type JsonObject } from "../records/json.js";
import { classifyOutput } from "../records/tool-output.js";
import type { AnyRecord, AssistantRecord, UserRecord } from "../records/transcript.js";
import type { Analysis } from "./analysis.js";
import { embeddedRecord, progressAgent } from "../records/progress-message.js";
import { detached, detachStrings } from "../sources/memory.js";
import { fullStatsAt, measureVisible, type TextMeasure } from "./outputs-measure.js";

export type { TextMeasure };

/** A tool_use block as the outputs analysis keeps it: the input only as a summary and the strings that can name a file. */
export interface ToolUseSeen {
  id: string;
  name: string;
  chain: string;
  file: string;
  line: number;
  timestamp: string | null;
  /** Scalar inputs as `key=value` (`chars=52000`), long strings shortened. */
  inputSummary: string;
  /** String inputs (file_path, path, command, pattern…), each capped, for finding reads of a saved file. */
  refs: string[];
  offset: number | null;
  limit: number | null;
}

export interface ResultSeen extends TextMeasure {
  toolUseId: string;
  chain: string;
  file: string;
  line: number;
  timestamp: string | null;
  sessionId: string | null;
  isError: boolean;
  images: number;
  /** Characters of the full output kept in `toolUseResult` (FORMATS.md 1 trap 5), or null when it holds no text. */
  fullChars: number | null;
  fullUtf8Bytes: number | null;
}

export interface ReplacementSeen extends TextMeasure {
  file: string;
  line: number;
}

export interface OutputsCollected {
  toolUses: ToolUseSeen[];
  results: ResultSeen[];
  /** Per-message budget stubs by tool_use id (`content-replacement` records, FORMATS.md 6.5); the last one wins. Keys set with setOwn, read with Object.hasOwn (ids are evidence text). */
  replacements: Record<string, ReplacementSeen>;
  /** Tool ids named by `microcompact_boundary` `compactedToolIds`, with where it said so. Keys as for `replacements`. */
  cleared: Record<string, { file: string; line: number }>;
  /** Server names the transcript itself names (`mcp_instructions_delta.addedNames`). */
  knownServers: string[];
  sessionIds: string[];
  /**
   * Tool results (and tool_use blocks) whose id came earlier in the pass: copies that forks and resumes
   * write into other chains and files (FORMATS.md 1 trap 4). Listed once; this counts the rest.
   */
  copies: number;
}

interface State {
  c: OutputsCollected;
  servers: Set<string>;
  sessions: Set<string>;
  /** One copy of each session id and tool name kept per result and call (each record parsed its own). */
  shared: Map<string, string>;
  /** Ids of the tool results and tool_use blocks kept so far. */
  resultIds: Set<string>;
  useIds: Set<string>;
}

/** At most this many distinct strings are shared; past it (a hostile transcript) each keeps its own. */
const SHARED_MAX = 4096;

function share(s: State, v: string): string {
  const known = s.shared.get(v);
  if (known !== undefined) return known;
  if (s.shared.size < SHARED_MAX) s.shared.set(v, v);
  return v;
}

const REF_CAP = 4096;
const SUMMARY_CAP = 120;

export interface OutputsOptions {
  /** As requests' `subagentFiles`: an `agent_progress` record of an agent not in it gives its embedded tool use or result. */
  subagentFiles?: ReadonlySet<string>;
}

/** Every tool_use, tool_result and content replacement of the pass, measured but not kept as text. */
export function outputsAnalysisWith(opts: OutputsOptions = {}): Analysis<State, OutputsCollected> {
  return {
    init: () => ({
      c: {
        toolUses: [],
        results: [],
        replacements: {},
        cleared: {},
        knownServers: [],
        sessionIds: [],
        copies: 0,
      },
      servers: new Set(),
      sessions: new Set(),
      shared: new Map(),
      resultIds: new Set(),
      useIds: new Set(),
    }),
    step(s, rec: AnyRecord) {
      if (rec.kind === "malformed") return;
      if (rec.sessionId) s.sessions.add(rec.sessionId);
      switch (rec.kind) {
        case "assistant":
          onAssistant(s, rec);
          break;
        case "user":
          onUser(s, rec);
          break;
        case "progress": {
          // A subagent whose file is not read: its tool uses and results are the ones its progress records embed.
          const agent = opts.subagentFiles && progressAgent(rec);
          const inner = agent && !opts.subagentFiles!.has(agent) ? embeddedRecord(rec) : undefined;
          if (inner?.kind === "assistant") onAssistant(s, inner);
          else if (inner?.kind === "user") onUser(s, inner);
          break;
        }
        case "content-replacement":
          for (const r of rec.replacements) {
            if (r.toolUseId === undefined || (r.kind !== undefined && r.kind !== "tool-result")) continue;
            setOwn(s.c.replacements, r.toolUseId, { file: rec.pos.file, line: rec.pos.line, ...measure(visibleText(r.replacement)) });
          }
          break;
        case "system": {
          const meta = rec.raw.microcompactMetadata;
          if (!isObject(meta)) break;
          for (const id of arr(meta.compactedToolIds) ?? [])
            if (typeof id === "string" && !Object.hasOwn(s.c.cleared, id))
              setOwn(s.c.cleared, id, { file: rec.pos.file, line: rec.pos.line });
          break;
        }
        case "attachment":
          if (rec.attachmentType !== "mcp_instructions_delta") break;
          for (const n of arr(rec.attachment.addedNames) ?? []) if (typeof n === "string") s.servers.add(n);
          break;
        default:
          break;
      }
    },
    finish(s) {
      s.c.knownServers = [...s.servers].sort();
      s.c.sessionIds = [...s.sessions].sort();
      return s.c;
    },
  };
}

export const outputsAnalysis = outputsAnalysisWith();

export function measure(text: string): TextMeasure {
  return { chars: text.length, utf8Bytes: utf8Bytes(text), codePoints: codePoints(text), message: detachStrings(classifyOutput(text)) };
}

function onAssistant(s: State, rec: AssistantRecord): void {
  const c = s.c;
  for (const b of rec.content) {
    if (b.type !== "tool_use" || typeof b.id !== "string" || s.useIds.has(b.id)) continue;
    s.useIds.add(b.id);
    const input = isObject(b.input) ? b.input : {};
    c.toolUses.push({
      id: b.id,
      name: share(s, str(b.name) ?? ""),
      chain: rec.chain,
      file: rec.pos.file,
      line: rec.pos.line,
      timestamp: rec.timestamp ?? null,
      // Kept to the end of the pass: pieces cut from the inputs must not hold the inputs (memory.ts).
      inputSummary: detached(summarize(input)),
      refs: Object.keys(input)
        .filter((k) => isStringAt(input, k))
        .map((k) => headAt(input, k, REF_CAP)),
      offset: num(input.offset) ?? null,
      limit: num(input.limit) ?? null,
    });
  }
}

function onUser(s: State, rec: UserRecord): void {
  const c = s.c;
  if (!Array.isArray(rec.content)) return;
  const results = rec.content.filter((b) => b.type === "tool_result" && typeof b.tool_use_id === "string");
  for (const b of results) {
    const id = b.tool_use_id as string;
    if (s.resultIds.has(id)) {
      c.copies += 1;
      continue;
    }
    s.resultIds.add(id);
    // One record carries one result in every build seen; with several, toolUseResult belongs to none alone.
    const full = results.length === 1 ? safeFullStats(rec) : null;
    c.results.push({
      toolUseId: b.tool_use_id as string,
      chain: rec.chain,
      file: rec.pos.file,
      line: rec.pos.line,
      timestamp: rec.timestamp ?? null,
      sessionId: rec.sessionId ? share(s, rec.sessionId) : (rec.sessionId ?? null),
      isError: b.is_error === true,
      images: isStringAt(b, "content") ? 0 : imageCount(b.content),
      fullChars: full?.units ?? null,
      fullUtf8Bytes: full?.bytes ?? null,
      ...measureVisible(b, "content"),
    });
  }
}

/** Sizes of `fullTextOf(rec.toolUseResult)`, counted on the undecoded text; the guard stays for safety. */
function safeFullStats(rec: UserRecord): TextStats | null {
  try {
    return fullStatsAt(rec, "toolUseResult");
  } catch {
    return null;
  }
}

/**
 * The full output kept in `toolUseResult`, whose shape varies by tool (FORMATS.md 10): a string, an
 * MCP content array, Bash `{stdout, stderr}`, Read `{file: {content}}`, `{content}`; null without text.
 */
export function fullTextOf(v: unknown): string | null {
  if (typeof v === "string") return v;
  if (Array.isArray(v)) return v.some((b) => isObject(b) && b.type === "text") ? visibleText(v) : null;
  if (!isObject(v)) return null;
  if (typeof v.stdout === "string" || typeof v.stderr === "string") return (str(v.stdout) ?? "") + (str(v.stderr) ?? "");
  if (isObject(v.file) && typeof v.file.content === "string") return v.file.content;
  if (typeof v.content === "string" || Array.isArray(v.content)) return visibleText(v.content);
  return null;
}

/** The first `n` units of the string at `o[k]`, decoding no more of it than that, in memory of its own. */
function headAt(o: JsonObject, k: string, n: number): string {
  const lazy = lazyOf(o, k);
  if (!lazy) return detached((o[k] as string).slice(0, n));
  // A window decoded to exactly `n` units (or fewer) is a string of its own already.
  const t = headOf(lazy, n);
  return t.length > n ? detached(t.slice(0, n)) : t;
}

/** `chars=52000`, `file_path=/…/x.txt offset=1100`: scalars as they are, long strings cut, objects elided. */
export function summarize(input: JsonObject): string {
  const parts: string[] = [];
  let length = 0;
  for (const k of Object.keys(input)) {
    let s: string;
    const lazy = lazyOf(input, k);
    const v = lazy && lazy.units > 48 ? null : input[k];
    if (lazy && v === null) s = `${headOf(lazy, 20).slice(0, 20)}…${tailOf(lazy, 24)}`;
    else if (typeof v === "string") s = v.length > 48 ? `${v.slice(0, 20)}…${v.slice(-24)}` : v;
    else if (typeof v === "number" || typeof v === "boolean" || v === null) s = String(v);
    else if (Array.isArray(v)) s = `[${v.length}]`;
    else s = "{…}";
    parts.push(`${k}=${s.replace(/\s+/g, " ")}`);
    // Past the cap the rest cannot show: the first SUMMARY_CAP - 1 characters are known.
    length += parts[parts.length - 1]!.length + (parts.length > 1 ? 1 : 0);
    if (length > SUMMARY_CAP) break;
  }
  const out = parts.join(" ");
  return out.length > SUMMARY_CAP ? `${out.slice(0, SUMMARY_CAP - 1)}…` : out;
}
