import { arr, bool, isObject, str, type JsonObject } from "./json.js";
import { copyProperty, lazyOf } from "./lazy-strings.js";
import type { Pos } from "./pos.js";
import type { MalformedLine } from "./source.js";
import { parseIsoTime } from "./time.js";
import { checkCounts, countField, valueText, type InvalidValue } from "./values.js";

/**
 * Token usage of one assistant record. An absent field is 0 (builds differ in what they write); a
 * field that holds no count (`1e308`, `-500`, `"12"`, `null`) is null: unknown for this fragment,
 * and listed in the record's `invalid`.
 */
export interface Usage {
  inputTokens: number | null;
  cacheCreationInputTokens: number | null;
  cacheReadInputTokens: number | null;
  outputTokens: number | null;
  cacheCreation5m: number | null;
  cacheCreation1h: number | null;
}

/** Fields every transcript record may carry (FORMATS.md 4.3). `raw` keeps the rest for the analyses. */
export interface Envelope {
  pos: Pos;
  chain: string;
  type: string;
  uuid: string | undefined;
  parentUuid: string | undefined;
  /** `sessionId`, or from 2.1.239 on `session_id`. */
  sessionId: string | undefined;
  agentId: string | undefined;
  isSidechain: boolean;
  timestamp: string | undefined;
  version: string | undefined;
  cwd: string | undefined;
  raw: JsonObject;
  /** Fields whose value is not what the field claims (a count that is no count, a time that is no time). */
  invalid: InvalidValue[];
}

export type ContentBlock = JsonObject & { type?: unknown };

export interface AssistantRecord extends Envelope {
  kind: "assistant";
  messageId: string | undefined;
  requestId: string | undefined;
  model: string | undefined;
  usage: Usage | undefined;
  stopReason: string | null;
  content: ContentBlock[];
  isApiError: boolean;
  /** Why this assistant record is no API request (no message, no usage), or undefined when it is one. */
  notRequest: string | undefined;
}

export interface UserRecord extends Envelope {
  kind: "user";
  /** `message.content`: a plain string or content blocks (text, tool_result, image). */
  content: string | ContentBlock[] | undefined;
  isMeta: boolean;
  isCompactSummary: boolean;
  toolUseResult: unknown;
}

export interface AttachmentRecord extends Envelope {
  kind: "attachment";
  attachment: JsonObject;
  attachmentType: string;
}

export interface SystemRecord extends Envelope {
  kind: "system";
  subtype: string | undefined;
}

export interface ProgressRecord extends Envelope {
  kind: "progress";
  dataType: string | undefined;
}

export interface ContentReplacementRecord extends Envelope {
  kind: "content-replacement";
  replacements: Array<{ kind: string | undefined; toolUseId: string | undefined; replacement: unknown }>;
}

/** A known record type that the analyses read only as metadata (summary, file-history-snapshot, …). */
export interface MetaRecord extends Envelope {
  kind: "meta";
}

/** A JSON object whose `type` this build does not know: counted, then passed over. */
export interface UnknownRecord extends Envelope {
  kind: "unknown";
}

export interface MalformedRecord extends MalformedLine {
  chain: string;
}

export type TranscriptRecord =
  AssistantRecord | UserRecord | AttachmentRecord | SystemRecord | ProgressRecord | ContentReplacementRecord | MetaRecord | UnknownRecord;

export type AnyRecord = TranscriptRecord | MalformedRecord;

/** Record types of FORMATS.md 4.1 and 10 that carry no data the analyses need beyond counting. */
export const META_TYPES: ReadonlySet<string> = new Set([
  "file-history-snapshot",
  "file-history-delta",
  "queue-operation",
  "summary",
  "custom-title",
  "ai-title",
  "last-prompt",
  "tag",
  "mode",
  "permission-mode",
  "pr-link",
  "agent-name",
  "worktree-state",
  "bridge-session",
  "atis-latch",
  "frame-link",
  "relocated",
  "prompt_snapshot",
]);

/** Turns a parsed JSON object into a typed record. Wrong-typed fields become undefined; nothing throws. */
export function toRecord(raw: JsonObject, pos: Pos, chain: string): TranscriptRecord {
  const type = str(raw.type) ?? "";
  const invalid: InvalidValue[] = [];
  const t = type === "" ? "(no type)" : type;
  const uuid = str(raw.uuid);
  const parentUuid = str(raw.parentUuid);
  const sessionId = str(raw.sessionId) ?? str(raw.session_id);
  const agentId = str(raw.agentId);
  const isSidechain = raw.isSidechain === true;
  const timestamp = timestampOf(raw.timestamp, invalid);
  const version = str(raw.version);
  const cwd = str(raw.cwd);
  // Each kind is one object literal, envelope first, in the order the fields always had: adding a kind's
  // fields to a built envelope grew its property store once or twice a record, and a data property made
  // an accessor afterwards (an undecoded string, records/lazy-strings.ts) turned the record into a
  // dictionary. Spreading the envelope cost 2-5 us a record.
  switch (type) {
    case "assistant": {
      const m = isObject(raw.message) ? raw.message : EMPTY;
      const usage = usageOf(m.usage, invalid);
      const isApiError = raw.isApiErrorMessage === true;
      const model = str(m.model);
      return {
        pos,
        chain,
        type: t,
        uuid,
        parentUuid,
        sessionId,
        agentId,
        isSidechain,
        timestamp,
        version,
        cwd,
        raw,
        invalid,
        kind: "assistant",
        messageId: str(m.id),
        requestId: str(raw.requestId),
        model,
        usage,
        stopReason: str(m.stop_reason) ?? null,
        content: blocksOf(m.content),
        isApiError,
        notRequest: isApiError || model === "<synthetic>" ? undefined : notRequestReason(raw.message, usage),
      };
    }
    case "user": {
      const m = isObject(raw.message) ? raw.message : EMPTY;
      const isMeta = bool(raw.isMeta) ?? false;
      const isCompactSummary = bool(raw.isCompactSummary) ?? false;
      // Long strings stay undecoded until read (records/skeleton.ts); their lengths are known already.
      const lazyContent = lazyOf(m, "content") !== undefined;
      const lazyResult = lazyOf(raw, "toolUseResult") !== undefined;
      if (!lazyContent && !lazyResult) {
        return {
          pos,
          chain,
          type: t,
          uuid,
          parentUuid,
          sessionId,
          agentId,
          isSidechain,
          timestamp,
          version,
          cwd,
          raw,
          invalid,
          kind: "user",
          content: typeof m.content === "string" ? m.content : Array.isArray(m.content) ? blocksOf(m.content) : undefined,
          isMeta,
          isCompactSummary,
          toolUseResult: raw.toolUseResult,
        };
      }
      // An undecoded string is added as an accessor where its field comes, never made one afterwards.
      const r = {
        pos,
        chain,
        type: t,
        uuid,
        parentUuid,
        sessionId,
        agentId,
        isSidechain,
        timestamp,
        version,
        cwd,
        raw,
        invalid,
        kind: "user",
      } as Partial<UserRecord>;
      if (lazyContent) copyProperty(m, "content", r, "content");
      else r.content = Array.isArray(m.content) ? blocksOf(m.content) : undefined;
      r.isMeta = isMeta;
      r.isCompactSummary = isCompactSummary;
      copyProperty(raw, "toolUseResult", r, "toolUseResult");
      return r as UserRecord;
    }
    case "attachment": {
      const a = isObject(raw.attachment) ? raw.attachment : {};
      return {
        pos,
        chain,
        type: t,
        uuid,
        parentUuid,
        sessionId,
        agentId,
        isSidechain,
        timestamp,
        version,
        cwd,
        raw,
        invalid,
        kind: "attachment",
        attachment: a,
        attachmentType: str(a.type) ?? "(no type)",
      };
    }
    case "system":
      return {
        pos,
        chain,
        type: t,
        uuid,
        parentUuid,
        sessionId,
        agentId,
        isSidechain,
        timestamp,
        version,
        cwd,
        raw,
        invalid,
        kind: "system",
        subtype: str(raw.subtype),
      };
    case "progress":
      return {
        pos,
        chain,
        type: t,
        uuid,
        parentUuid,
        sessionId,
        agentId,
        isSidechain,
        timestamp,
        version,
        cwd,
        raw,
        invalid,
        kind: "progress",
        dataType: isObject(raw.data) ? str(raw.data.type) : undefined,
      };
    case "content-replacement":
      return {
        pos,
        chain,
        type: t,
        uuid,
        parentUuid,
        sessionId,
        agentId,
        isSidechain,
        timestamp,
        version,
        cwd,
        raw,
        invalid,
        kind: "content-replacement",
        replacements: (arr(raw.replacements) ?? []).filter(isObject).map((x) => ({
          kind: str(x.kind),
          toolUseId: str(x.toolUseId),
          replacement: x.replacement,
        })),
      };
    default:
      return {
        pos,
        chain,
        type: t,
        uuid,
        parentUuid,
        sessionId,
        agentId,
        isSidechain,
        timestamp,
        version,
        cwd,
        raw,
        invalid,
        kind: META_TYPES.has(type) ? "meta" : "unknown",
      };
  }
}

/** What a record reads from a missing or wrong-typed `message`: never written to. */
const EMPTY: JsonObject = Object.freeze({}) as JsonObject;

/** `message.usage` (FORMATS.md 4.4); every count checked, the nested `cache_creation` and `server_tool_use` too. */
export function usageOf(u: unknown, invalid: InvalidValue[] = [], path = "message.usage"): Usage | undefined {
  if (!isObject(u)) return undefined;
  const cc = isObject(u.cache_creation) ? u.cache_creation : undefined;
  if (cc === undefined && u.cache_creation !== undefined && u.cache_creation !== null)
    invalid.push({ field: `${path}.cache_creation`, value: valueText(u.cache_creation) });
  if (u.server_tool_use !== undefined && u.server_tool_use !== null) checkCounts(u.server_tool_use, `${path}.server_tool_use`, invalid);
  // Plain calls, no closures: this runs per assistant record.
  const inputTokens = orZero(countField(u, "input_tokens", path, invalid));
  const cacheCreationInputTokens = orZero(countField(u, "cache_creation_input_tokens", path, invalid));
  const cacheReadInputTokens = orZero(countField(u, "cache_read_input_tokens", path, invalid));
  const outputTokens = orZero(countField(u, "output_tokens", path, invalid));
  const nestedPath = cc ? `${path}.cache_creation` : "";
  const cacheCreation5m = cc ? (countField(cc, "ephemeral_5m_input_tokens", nestedPath, invalid) ?? null) : null;
  const cacheCreation1h = cc ? (countField(cc, "ephemeral_1h_input_tokens", nestedPath, invalid) ?? null) : null;
  return { inputTokens, cacheCreationInputTokens, cacheReadInputTokens, outputTokens, cacheCreation5m, cacheCreation1h };
}

/** An absent count is 0; an invalid one (null) stays unknown. */
const orZero = (v: number | null | undefined): number | null => (v === undefined ? 0 : v);

function notRequestReason(message: unknown, usage: Usage | undefined): string | undefined {
  if (message === undefined) return "assistant record without a message: not a request";
  if (!isObject(message)) return `assistant record whose message is ${valueText(message)}: not a request`;
  if (usage === undefined) return "assistant record without a usage object: not a request";
  return undefined;
}

/** A timestamp that is no ISO time (`"garbage"`, `2026-02-30`, a number) is unknown, and listed. */
function timestampOf(v: unknown, invalid: InvalidValue[]): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v === "string" && parseIsoTime(v) !== undefined) return v;
  invalid.push({ field: "timestamp", value: valueText(v) });
  return undefined;
}

/** A message's content blocks: the array itself when every element is an object (nearly always; no copy a record), else its objects. */
function blocksOf(c: unknown): ContentBlock[] {
  const a = arr(c);
  if (a === undefined) return [];
  for (let i = 0; i < a.length; i++) if (!isObject(a[i])) return a.filter(isObject) as ContentBlock[];
  return a as ContentBlock[];
}
