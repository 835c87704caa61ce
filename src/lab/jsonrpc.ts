import { excerptOf, isObject, type JsonObject } from "../records/json.js";

/**
 * JSON-RPC 2.0 as the lab servers speak it over stdio (MCP: one message per line). Pure: a received
 * line becomes one `Incoming`, and every outcome becomes one reply object or none.
 */
export type RpcId = string | number | null;

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** 2026-07-28: the request's `_meta` protocol version is not one the server supports (FORMATS.md 9.2). */
export const UNSUPPORTED_VERSION = -32022;

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

export type Incoming =
  | { kind: "request"; id: string | number; method: string; params: JsonObject | undefined; meta: JsonObject | undefined }
  | { kind: "notification"; method: string; params: JsonObject | undefined; meta: JsonObject | undefined }
  /** A reply from the client (to a request the server sent); the labs send none, so it is only logged. */
  | { kind: "response"; id: RpcId; message: JsonObject }
  /** Valid JSON that is not a message: answered with -32600 (or -32700 for bad JSON), id null when unknown. */
  | { kind: "invalid"; id: RpcId; error: RpcError; excerpt: string };

/** Classifies one non-blank line. Never throws. */
export function classify(line: string): Incoming {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch (e) {
    return {
      kind: "invalid",
      id: null,
      error: { code: PARSE_ERROR, message: `Parse error: ${(e as Error).message}` },
      excerpt: excerptOf(line),
    };
  }
  if (Array.isArray(v)) return invalid(null, "batches are not supported (MCP removed JSON-RPC batching)", line);
  if (!isObject(v)) return invalid(null, "expected a JSON-RPC message object", line);
  const id = typeof v.id === "string" || typeof v.id === "number" ? v.id : null;
  if (v.jsonrpc !== "2.0") return invalid(id, 'missing "jsonrpc": "2.0"', line);
  if (typeof v.method !== "string") {
    if ("result" in v || "error" in v) return { kind: "response", id, message: v };
    return invalid(id, "expected a method (or a result/error)", line);
  }
  if (v.params !== undefined && !isObject(v.params)) return invalid(id, "params must be an object", line);
  const params = v.params as JsonObject | undefined;
  const meta = params && isObject(params._meta) ? params._meta : undefined;
  if (v.id === undefined) return { kind: "notification", method: v.method, params, meta };
  if (id === null) return invalid(null, "id must be a string or a number", line);
  return { kind: "request", id, method: v.method, params, meta };
}

function invalid(id: RpcId, why: string, line: string): Incoming {
  return { kind: "invalid", id, error: { code: INVALID_REQUEST, message: `Invalid Request: ${why}` }, excerpt: excerptOf(line) };
}

export function resultMessage(id: RpcId, result: JsonObject): JsonObject {
  return { jsonrpc: "2.0", id, result };
}

export function errorMessage(id: RpcId, error: RpcError): JsonObject {
  return { jsonrpc: "2.0", id, error };
}
