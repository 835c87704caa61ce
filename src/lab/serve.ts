import { drained } from "../io.js";
import type { JsonObject } from "../records/json.js";
import { LineSplitter, type RawLine } from "../sources/lines.js";
import {
  INTERNAL_ERROR,
  METHOD_NOT_FOUND,
  PARSE_ERROR,
  classify,
  errorMessage,
  resultMessage,
  type Incoming,
  type RpcError,
} from "./jsonrpc.js";
import type { RpcLog } from "./rpc-log.js";

export type LabRequest = Extract<Incoming, { kind: "request" }>;

/** What a server does with one request: a result (possibly late), an error, no reply, or dying on the spot. */
export type Outcome =
  | { result: JsonObject; delayMs?: number }
  | { error: RpcError }
  /** No reply ever (`--probe hang`); the client has to time out. */
  | { silent: true }
  /** The server stops reading and exits non-zero without replying (`--probe crash`). */
  | { exit: number; why: string };

export interface LabHandler {
  /** Answers a request; null when the method is not the server's (the core answers -32601). */
  request(req: LabRequest): Outcome | null;
}

export interface ServeOptions {
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  /** One line of diagnostics (stderr): stdout carries JSON-RPC only. */
  diag?: (line: string) => void;
  log?: RpcLog | null;
  now?: () => Date;
}

export interface ServeStats {
  received: number;
  replied: number;
  invalid: number;
  /** Set when a handler chose to die (`{exit}`): the caller exits with this code. */
  exited: { code: number; why: string } | null;
}

/** A JSON-RPC message longer than this is not one any client sends; it is refused, not buffered. */
const MAX_LINE_BYTES = 64 << 20;

/**
 * Serves newline-delimited JSON-RPC on stdin/stdout until stdin ends, then waits for delayed replies
 * and returns. Streams line by line; blank lines are skipped; bad JSON gets -32700 (id null), other
 * non-messages -32600; a handler that throws gets -32603. Nothing but replies is written to `output`;
 * the log gets every message both ways, each when it is read or written.
 */
export async function serveStdio(handler: LabHandler, opts: ServeOptions = {}): Promise<ServeStats> {
  const input = opts.input ?? process.stdin;
  const output = opts.output ?? process.stdout;
  const diag = opts.diag ?? ((l: string) => process.stderr.write(`${l}\n`));
  const now = opts.now ?? (() => new Date());
  const stats: ServeStats = { received: 0, replied: 0, invalid: 0, exited: null };
  const pending = new Set<Promise<void>>();
  let closed = false;
  output.on("error", (e: Error) => {
    if (!closed) diag(`stdout closed (${e.message}); stopping`);
    closed = true;
  });

  const send = async (msg: JsonObject): Promise<void> => {
    if (closed || stats.exited) return;
    stats.replied += 1;
    opts.log?.sent(msg, now());
    if (!output.write(`${JSON.stringify(msg)}\n`)) await drained(output).catch(() => undefined);
  };

  const onLine = async (raw: RawLine): Promise<void> => {
    if (raw.tooLong) {
      stats.invalid += 1;
      const error = { code: PARSE_ERROR, message: `Parse error: a line of ${raw.bytes} bytes is longer than ${MAX_LINE_BYTES} bytes` };
      opts.log?.received({ kind: "invalid", id: null, error, excerpt: "" }, now());
      return send(errorMessage(null, error));
    }
    const text = raw.buf.toString("utf8");
    if (text.trim() === "") return;
    const msg = classify(text);
    stats.received += 1;
    opts.log?.received(msg, now());
    if (msg.kind === "invalid") {
      stats.invalid += 1;
      diag(`line ${raw.line}: ${msg.error.message}`);
      return send(errorMessage(msg.id, msg.error));
    }
    if (msg.kind !== "request" || stats.exited) return;
    const out = answer(handler, msg, diag);
    if ("silent" in out) return diag(`${msg.method} (id ${String(msg.id)}): no reply, on purpose`);
    if ("exit" in out) {
      stats.exited = { code: out.exit, why: out.why };
      opts.log?.event({ event: "exit", code: out.exit, why: out.why }, now());
      return;
    }
    if ("error" in out) return send(errorMessage(msg.id, out.error));
    const reply = resultMessage(msg.id, out.result);
    if (!out.delayMs) return send(reply);
    const p = new Promise<void>((res) => setTimeout(res, out.delayMs)).then(() => send(reply));
    pending.add(p);
    void p.finally(() => pending.delete(p));
  };

  const splitter = new LineSplitter(MAX_LINE_BYTES);
  const lines: RawLine[] = [];
  try {
    for await (const chunk of input) {
      splitter.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer), lines);
      for (const l of lines) await onLine(l);
      lines.length = 0;
      if (closed || stats.exited) break;
    }
  } catch (e) {
    diag(`stdin failed (${(e as Error).message}); stopping`);
  }
  // A server that died answers nothing more, late replies included.
  if (stats.exited) return stats;
  splitter.end(lines);
  for (const l of lines) await onLine(l);
  await Promise.all(pending);
  return stats;
}

function answer(handler: LabHandler, req: LabRequest, diag: (l: string) => void): Outcome {
  try {
    const out = handler.request(req);
    if (out) return out;
    if (req.method === "ping") return { result: {} };
    return { error: { code: METHOD_NOT_FOUND, message: `Method not found: ${req.method}` } };
  } catch (e) {
    diag(`${req.method} (id ${String(req.id)}) failed: ${(e as Error).stack ?? String(e)}`);
    return { error: { code: INTERNAL_ERROR, message: `Internal error: ${(e as Error).message}` } };
  }
}
