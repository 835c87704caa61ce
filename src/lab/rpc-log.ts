import { closeSync, openSync, writeSync } from "node:fs";
import { UsageError } from "../errors.js";
import type { JsonObject } from "../records/json.js";
import type { Incoming } from "./jsonrpc.js";

/**
 * The lab's message log (`rpc-log.jsonl`, the log seed 000 describes): one JSON line per message in
 * either direction, the whole JSON-RPC message with `t` (ISO time) and `dir` (`in` = received from
 * the client, `out` = sent to it) in front. `ccforensics rpc` reads these as wrapper lines, so the
 * probe's answer, initialize's params and every tools/list result are in the evidence. Lines that
 * were not messages are logged as `{"t", "dir": "in", "malformed", "excerpt"}` and the server's own
 * end as `{"t", "event": "exit", …}`; the reader counts both as noise. One synchronous write per
 * line, so a server that is killed (or crashes on purpose) loses nothing.
 */
export class RpcLog {
  private fd: number | null;

  constructor(readonly path: string) {
    try {
      this.fd = openSync(path, "a");
    } catch (e) {
      throw new UsageError(`cannot open the message log ${path}: ${(e as Error).message}`);
    }
  }

  received(msg: Incoming, at: Date): void {
    this.append(receivedEntry(msg, at));
  }

  sent(msg: JsonObject, at: Date): void {
    this.append({ t: at.toISOString(), dir: "out", ...msg });
  }

  event(what: JsonObject, at: Date): void {
    this.append({ t: at.toISOString(), ...what });
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private append(entry: JsonObject): void {
    if (this.fd !== null) writeSync(this.fd, `${JSON.stringify(entry)}\n`);
  }
}

/** The log line for one received message. Pure. */
export function receivedEntry(msg: Incoming, at: Date): JsonObject {
  const head = { t: at.toISOString(), dir: "in" };
  switch (msg.kind) {
    case "request":
      return { ...head, jsonrpc: "2.0", id: msg.id, method: msg.method, ...(msg.params !== undefined ? { params: msg.params } : {}) };
    case "notification":
      return { ...head, jsonrpc: "2.0", method: msg.method, ...(msg.params !== undefined ? { params: msg.params } : {}) };
    case "response":
      return { ...head, ...msg.message };
    case "invalid":
      return { ...head, malformed: msg.error.message, excerpt: msg.excerpt };
  }
}
