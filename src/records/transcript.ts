import { arr, bool, isObject, str, type JsonObject } from "./json.js";
import { copyProperty, isStringAt } from "./lazy-strings.js";
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
  const env: Envelope = {
    pos,
    chain,
    type: type === "" ? "(no type)" : type,
    uuid: str(raw.uuid),
    parentUuid: str(raw.parentUuid),
    sessionId: str(raw.sessionId) ?? str(raw.session_id),
    agentId: str(raw.agentId),
    isSidechain: raw.isSidechain === true,
    timestamp: timestampOf(raw.timestamp, invalid),
    version: str(raw.version),
    cwd: str(raw.cwd),
    raw,
    invalid,
  };
  // Each kind's fields are added to the envelope in place: spreading 14 fields into a new object cost
  // 2–5 µs a record, most of what building records cost.
  switch (type) {
    case "assistant": {
      const m = isObject(raw.message) ? raw.message : {};
      const usage = usageOf(m.usage, invalid);
      const isApiError = raw.isApiErrorMessage === true;
      const model = str(m.model);
      const r = env as AssistantRecord;
      r.kind = "assistant";
      r.messageId = str(m.id);
      r.requestId = str(raw.requestId);
      r.model = model;
      r.usage = usage;
      r.stopReason = str(m.stop_reason) ?? null;
      r.content = blocksOf(m.content);
      r.isApiError = isApiError;
      r.notRequest = isApiError || model === "<synthetic>" ? undefined : notRequestReason(raw.message, usage);
      return r;
    }
    case "user": {
      const m = isObject(raw.message) ? raw.message : {};
      const r = env as UserRecord;
      r.kind = "user";
      r.content = undefined;
      r.isMeta = bool(raw.isMeta) ?? false;
      r.isCompactSummary = bool(raw.isCompactSummary) ?? false;
      r.toolUseResult = undefined;
      // Long strings stay undecoded until read (records/skeleton.ts); their lengths are known already.
      if (isStringAt(m, "content")) copyProperty(m, "content", r, "content");
      else if (Array.isArray(m.content)) r.content = blocksOf(m.content);
      copyProperty(raw, "toolUseResult", r, "toolUseResult");
      return r;
    }
    case "attachment": {
      const a = isObject(raw.attachment) ? raw.attachment : {};
      const r = env as AttachmentRecord;
      r.kind = "attachment";
      r.attachment = a;
      r.attachmentType = str(a.type) ?? "(no type)";
      return r;
    }
    case "system": {
      const r = env as SystemRecord;
      r.kind = "system";
      r.subtype = str(raw.subtype);
      return r;
    }
    case "progress": {
      const r = env as ProgressRecord;
      r.kind = "progress";
      r.dataType = isObject(raw.data) ? str(raw.data.type) : undefined;
      return r;
    }
    case "content-replacement": {
      const r = env as ContentReplacementRecord;
      r.kind = "content-replacement";
      r.replacements = (arr(raw.replacements) ?? []).filter(isObject).map((x) => ({
        kind: str(x.kind),
        toolUseId: str(x.toolUseId),
        replacement: x.replacement,
      }));
      return r;
    }
    default: {
      const r = env as MetaRecord | UnknownRecord;
      r.kind = META_TYPES.has(type) ? "meta" : "unknown";
      return r;
    }
  }
}

/** `message.usage` (FORMATS.md 4.4); every count checked, the nested `cache_creation` and `server_tool_use` too. */
export function usageOf(u: unknown, invalid: InvalidValue[] = [], path = "message.usage"): Usage | undefined {
  if (!isObject(u)) return undefined;
  const cc = isObject(u.cache_creation) ? u.cache_creation : undefined;
  if (cc === undefined && u.cache_creation !== undefined && u.cache_creation !== null)
    invalid.push({ field: `${path}.cache_creation`, value: valueText(u.cache_creation) });
  checkCounts(u.server_tool_use ?? undefined, `${path}.server_tool_use`, invalid);
  const top = (k: string) => {
    const v = countField(u, k, path, invalid);
    return v === undefined ? 0 : v;
  };
  const nested = (k: string) => (cc ? (countField(cc, k, `${path}.cache_creation`, invalid) ?? null) : null);
  return {
    inputTokens: top("input_tokens"),
    cacheCreationInputTokens: top("cache_creation_input_tokens"),
    cacheReadInputTokens: top("cache_read_input_tokens"),
    outputTokens: top("output_tokens"),
    cacheCreation5m: nested("ephemeral_5m_input_tokens"),
    cacheCreation1h: nested("ephemeral_1h_input_tokens"),
  };
}

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

function blocksOf(c: unknown): ContentBlock[] {
  return (arr(c) ?? []).filter(isObject) as ContentBlock[];
}
