/** Record builders for reducer tests: give the fields that matter, the rest is filled in. */
let n = 0;
const ts = (i: number) => new Date(Date.UTC(2026, 8, 16, 10, 0, i)).toISOString();

export interface UsageIn {
  input_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
  output_tokens?: number;
  cache_creation?: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

export function assistant(
  o: {
    id?: string;
    requestId?: string;
    model?: string;
    usage?: UsageIn;
    stop?: string | null;
    blocks?: unknown[];
    extra?: Record<string, unknown>;
  } = {},
) {
  n++;
  return {
    parentUuid: null,
    isSidechain: false,
    userType: "external",
    cwd: "/home/dev/x",
    sessionId: "s-1",
    version: "2.1.88",
    message: {
      id: o.id ?? `msg_${n}`,
      type: "message",
      role: "assistant",
      model: o.model ?? "claude-opus-5",
      content: o.blocks ?? [{ type: "text", text: "ok" }],
      stop_reason: o.stop === undefined ? "end_turn" : o.stop,
      usage: { input_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 10, ...o.usage },
    },
    requestId: o.requestId ?? `req_${n}`,
    type: "assistant",
    uuid: `a-${n}`,
    timestamp: ts(n),
    ...o.extra,
  };
}

export function userText(text: string, extra: Record<string, unknown> = {}) {
  n++;
  return {
    parentUuid: null,
    isSidechain: false,
    type: "user",
    message: { role: "user", content: text },
    uuid: `u-${n}`,
    timestamp: ts(n),
    sessionId: "s-1",
    ...extra,
  };
}

export function toolResult(id: string, content: unknown, extra: Record<string, unknown> = {}) {
  n++;
  return {
    parentUuid: null,
    isSidechain: false,
    type: "user",
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content }] },
    uuid: `u-${n}`,
    timestamp: ts(n),
    sessionId: "s-1",
    ...extra,
  };
}

export function attachment(a: Record<string, unknown>) {
  n++;
  return { parentUuid: null, isSidechain: false, attachment: a, type: "attachment", uuid: `t-${n}`, timestamp: ts(n), sessionId: "s-1" };
}

export const jsonl = (...recs: unknown[]) => recs.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + "\n";
