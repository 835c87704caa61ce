import { isObject, type JsonObject } from "../records/json.js";
import { utf8Bytes } from "../records/content.js";
import type { RpcDir, RpcMessage, RpcShape, RpcLineFormat } from "../records/rpc.js";
import type { SentEntry, SentStore } from "./rpc-texts.js";

/** The 2026-07-28 `_meta` keys every modern request carries (FORMATS.md 9.2). */
export const META_VERSION = "io.modelcontextprotocol/protocolVersion";
export const META_CLIENT = "io.modelcontextprotocol/clientInfo";

/** What classification needs of one message. Bodies are dropped at step time: a logged tool result can be megabytes. */
export interface RpcSummary {
  line: number;
  time: string | null;
  ms: number | null;
  dir: RpcDir;
  dirLogged: boolean;
  source: RpcLineFormat;
  shape: RpcShape;
  method: string | null;
  id: string | number | null;
  /** `params._meta["io.modelcontextprotocol/protocolVersion"]`. */
  metaVersion: string | null;
  /** `params.protocolVersion` (initialize). */
  paramsVersion: string | null;
  /** From `_meta` clientInfo (modern) or `params.clientInfo` (initialize). */
  clientName: string | null;
  clientVersion: string | null;
  errorCode: number | null;
  /** Length of `result.instructions`. */
  instructionsChars: number | null;
  /** Its UTF-8 size: the source text's bytes, which the transcript (holding only what was kept) cannot give. */
  instructionsUtf8Bytes: number | null;
  /**
   * The text, kept (once per distinct text, in the log's SentStore) only when the command checks that what reached the
   * model is a verbatim prefix of it (instructions `verbatimPrefix`, a section's end); null for `rpc`, which never does.
   */
  instructionsSent: SentEntry | null;
  /** The answering server's own name: `serverInfo.name` (initialize) or the DiscoverResult's `_meta` serverInfo. */
  serverName: string | null;
  /** Claude Desktop's `[server]` of the line (RpcMessage.server): whose connection the message is of. */
  server: string | null;
  note: string;
}

const text = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** Keeps the fields the handshake and the timeline read; drops the body. */
export function summarize(m: RpcMessage, store: SentStore | null = null): RpcSummary {
  const params = isObject(m.message.params) ? m.message.params : null;
  const meta = params && isObject(params._meta) ? params._meta : null;
  const client =
    meta && isObject(meta[META_CLIENT])
      ? (meta[META_CLIENT] as JsonObject)
      : params && isObject(params.clientInfo)
        ? params.clientInfo
        : null;
  const err = isObject(m.message.error) ? m.message.error : null;
  const res = isObject(m.message.result) ? m.message.result : null;
  const sum: RpcSummary = {
    line: m.pos.line,
    time: m.time,
    ms: m.ms,
    dir: m.dir,
    dirLogged: m.dirLogged,
    source: m.source,
    shape: m.shape,
    method: m.method,
    id: m.id,
    metaVersion: meta ? text(meta[META_VERSION]) : null,
    paramsVersion: params ? text(params.protocolVersion) : null,
    clientName: client ? text(client.name) : null,
    clientVersion: client ? text(client.version) : null,
    errorCode: err && typeof err.code === "number" ? err.code : null,
    instructionsChars: res && typeof res.instructions === "string" ? res.instructions.length : null,
    instructionsUtf8Bytes: res && typeof res.instructions === "string" ? utf8Bytes(res.instructions) : null,
    instructionsSent: store && res && typeof res.instructions === "string" ? store.add(res.instructions) : null,
    serverName: res ? serverNameOf(res) : null,
    server: m.server,
    note: "",
  };
  sum.note = noteOf(sum, params, err, res);
  return sum;
}

export const META_SERVER = "io.modelcontextprotocol/serverInfo";

function serverNameOf(res: JsonObject): string | null {
  if (isObject(res.serverInfo)) return text(res.serverInfo.name);
  const meta = isObject(res._meta) ? res._meta : null;
  return meta && isObject(meta[META_SERVER]) ? text((meta[META_SERVER] as JsonObject).name) : null;
}

function noteOf(m: RpcSummary, params: JsonObject | null, err: JsonObject | null, res: JsonObject | null): string {
  const bits: string[] = [];
  if (m.metaVersion) bits.push(`_meta ${m.metaVersion}`);
  if (m.method === "initialize" && m.paramsVersion) bits.push(`protocolVersion ${m.paramsVersion}`);
  if (m.method === "tools/call" && params && typeof params.name === "string") bits.push(params.name);
  if (err) bits.push(`error ${String(err.code)}${typeof err.message === "string" ? ` ${err.message}` : ""}`);
  if (m.instructionsChars !== null) bits.push(`instructions ${m.instructionsChars.toLocaleString("en-US")} chars`);
  if (res && typeof res.protocolVersion === "string") bits.push(`protocolVersion ${res.protocolVersion}`);
  if (res && Array.isArray(res.supportedVersions)) bits.push(`supportedVersions ${res.supportedVersions.join(",")}`);
  if (res && Array.isArray(res.tools)) bits.push(`${res.tools.length} tools`);
  if (!m.dirLogged && m.dir !== null) bits.push("(direction inferred)");
  return bits.join("; ");
}
