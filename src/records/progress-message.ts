import { chainKind } from "./chains.js";
import { isObject, str, type JsonObject } from "./json.js";
import { copyProperty } from "./lazy-strings.js";
import { toRecord, type AssistantRecord, type ProgressRecord, type UserRecord } from "./transcript.js";

/** An agent id fit to be a chain label, as a subagent file's name gives one (`agent-<id>.jsonl`). */
const AGENT_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** What a progress record embeds, made once: `requests` and `outputs` read the same record in one pass. */
const made = new WeakMap<ProgressRecord, AssistantRecord | UserRecord | null>();

/**
 * The subagent record an `agent_progress` record carries in `data.message` (FORMATS.md 1.4, 4.6): Claude Code
 * 2.1.14–2.1.39 wrote each of a subagent's assistant and user records into the parent file this way, as well
 * as into the subagent's own `subagents/agent-<id>.jsonl`, which can be missing (moved, deleted, left out of a
 * snapshot). The record is made by `toRecord` as a subagent file's line would be: chain `data.agentId`,
 * `isSidechain`, the progress record's session, and its file and line as the position. undefined for every
 * other progress record, a message of another type, or an agent id that is no chain label (`main`, a
 * session id, anything but letters, digits, `_` and `-`).
 */
export function embeddedRecord(rec: ProgressRecord): AssistantRecord | UserRecord | undefined {
  if (rec.dataType !== "agent_progress") return undefined;
  let r = made.get(rec);
  if (r === undefined) made.set(rec, (r = build(rec)));
  return r ?? undefined;
}

/** The agent an `agent_progress` record speaks for, when it is fit to be a chain label. */
export function progressAgent(rec: ProgressRecord): string | undefined {
  if (rec.dataType !== "agent_progress" || !isObject(rec.raw.data)) return undefined;
  const agent = str(rec.raw.data.agentId);
  return agent !== undefined && AGENT_ID.test(agent) && chainKind(agent) === "subagent" ? agent : undefined;
}

function build(rec: ProgressRecord): AssistantRecord | UserRecord | null {
  const agent = progressAgent(rec);
  const data = rec.raw.data as JsonObject;
  const m = data.message;
  if (agent === undefined || !isObject(m) || (m.type !== "assistant" && m.type !== "user")) return null;
  // The envelope a subagent file's record has; the message's own fields as they are (a long string stays undecoded).
  const raw: JsonObject = { type: m.type, isSidechain: true, agentId: agent };
  if (rec.sessionId !== undefined) raw.sessionId = rec.sessionId;
  if (rec.cwd !== undefined) raw.cwd = rec.cwd;
  if (rec.version !== undefined) raw.version = rec.version;
  for (const k of ["uuid", "parentUuid", "timestamp", "requestId", "isMeta", "isApiErrorMessage", "message", "toolUseResult"])
    if (Object.hasOwn(m, k)) copyProperty(m, k, raw, k);
  const out = toRecord(raw, rec.pos, agent);
  return out.kind === "assistant" || out.kind === "user" ? out : null;
}
