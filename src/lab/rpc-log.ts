import { closeSync, openSync, writeSync } from "node:fs";
import { UsageError } from "../errors.js";
import type { JsonObject } from "../records/json.js";
import type { Incoming } from "./jsonrpc.js";

/**
 * The lab's message log (seed 000's `rpc-log.jsonl`, FORMATS.md 2.6/9.3): one JSON line per RECEIVED
 * message, `{"t", "method", "id", "_meta"}` — `id` absent for notifications, `_meta` absent when the
 * request had none. `ccforensics rpc` reads it as "lab" summaries. Lines that were not messages are
 * logged as `{"t", "malformed", "excerpt"}`, which the reader counts as noise. Appended with one
 * synchronous write per line, so a killed server loses nothing.
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
    this.append(logEntry(msg, at));
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
export function logEntry(msg: Incoming, at: Date): JsonObject {
  const t = at.toISOString();
  switch (msg.kind) {
    case "request":
      return { t, method: msg.method, id: msg.id, ...(msg.meta ? { _meta: msg.meta } : {}) };
    case "notification":
      return { t, method: msg.method, ...(msg.meta ? { _meta: msg.meta } : {}) };
    case "response":
      return { t, id: msg.id, response: true };
    case "invalid":
      return { t, malformed: msg.error.message, excerpt: msg.excerpt };
  }
}
