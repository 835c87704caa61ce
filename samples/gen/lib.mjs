// Deterministic builders for Claude Code transcript records (plain Node ESM, no dependencies).
//
// API
//   session(opts) -> Session               one .jsonl file (a main chain or one subagent chain)
//     opts: sessionId, cwd, version, [gitBranch="main"], [slug], [model], [agentId] (makes it a
//           sidechain), [promptId] (subagents: the parent's turn), [start] ISO time,
//           [cacheTtl "1h"|"5m"], [seed], [idStyle "camel"|"both"|"snake"] (session id key(s))
//   Session methods (each appends lines and returns the entry, or an array of entries):
//     .user(text, {snapshot, isMeta, dt, idStyle})          prompt; snapshot:true writes a
//                                                            file-history-snapshot line first
//     .assistantSplit({blocks, id, requestId, model, usage, base, input, placeholder, dt, stop,
//                      after(i, block, entry)})               one record per content block; `after`
//                                                            runs after each fragment (interleaving)
//     .setVersion(version, {model})         a resumed session written by another build
//     .toolResult(toolUseId, content, toolUseResult, {isError, dt, idStyle})
//     .attachment(obj, {dt, idStyle})       .system(subtype, fields, {dt}) (turn_duration: timed)
//     .synthetic(text, {apiError, dt})      .queueOperation(op, content)     .lastPrompt(text)
//     .progressAgent({agentId, prompt, parentToolUseID, embed})   old `agent_progress` record
//     .raw(text) / .record(obj)             any line, verbatim / any object
//     .text() -> file content               .write(path)
//   Session fields: entries [{line, text, eol, obj}], requests [{id, requestId, line, ...}]
//   Block helpers: thinking(text), text(text), toolUse(name, input) (ids are derived)
//   ids(seed): {uuid(), msgId(), reqId(), toolId(), hex(n)}; sessionDir/projectKey helpers;
//   analyzeTranscript(fileText) -> {lines, requests, malformed, unknown} (the reference rules
//   the EXPECTED files are computed with).
//
// Key order follows what Claude Code writes: up to about 2.1.7x the envelope comes first
// (parentUuid, isSidechain, userType, cwd, sessionId, version, gitBranch, [slug], [agentId],
// then the record); from about 2.1.8x it comes last (parentUuid, isSidechain, [promptId],
// [agentId], record, userType, entrypoint, cwd, sessionId, version, gitBranch, slug). Public
// samples: 2.0.64 and 2.1.73 envelope-first, 2.1.81 / 2.1.98 / 2.1.241 envelope-last.
// Usage: 2.0.x writes every fragment with stop_reason null; 2.1.x writes non-final fragments with
// the message_start snapshot (output_tokens 1-3) and the final one with the full usage.
// Usage numbers are generated so that each request = previous request + previous output +
// what was added in between (token estimates from character counts).

import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/**
 * The samples/ folder the generators write into: the repository's own, or CCF_SAMPLES_ROOT (the
 * generator check in npm test regenerates every sample into a temp dir and compares the bytes).
 */
export function samplesRoot() {
  return process.env.CCF_SAMPLES_ROOT || join(dirname(fileURLToPath(import.meta.url)), "..");
}

export function hash(...parts) {
  return createHash("sha256").update(parts.join("\u0000")).digest();
}

function b58(buf, n) {
  let out = "";
  for (let i = 0; i < n; i++) out += B58[buf[i % buf.length] % 58];
  return out;
}

/** Deterministic id factory: the same seed always yields the same sequence. */
export function ids(seed) {
  let n = 0;
  const next = (kind) => hash(seed, kind, String(n++));
  return {
    uuid() {
      const h = next("uuid").toString("hex");
      const v = "89ab"[parseInt(h[16], 16) & 3];
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${v}${h.slice(17, 20)}-${h.slice(20, 32)}`;
    },
    msgId: () => "msg_01" + b58(next("msg"), 22),
    reqId: () => "req_011C" + b58(next("req"), 20),
    toolId: () => "toolu_01" + b58(next("toolu"), 22),
    hex: (len) => next("hex").toString("hex").slice(0, len),
    signature: () => Buffer.concat([next("sig1"), next("sig2"), next("sig3")]).toString("base64"),
  };
}

/** `[CC 2.1.88]` project key: every char outside [A-Za-z0-9] becomes "-". */
export function projectKey(cwd) {
  return cwd.replace(/[^A-Za-z0-9]/g, "-");
}

function versionNum(v) {
  const [a, b, c] = v.split(".").map(Number);
  return a * 1e6 + b * 1e3 + c;
}

/** Token estimates used to grow requests realistically. */
export const est = {
  prompt: (chars) => Math.ceil(chars / 3.8) + 4,
  toolResult: (chars) => Math.ceil(chars / 3.2) + 8,
  attachment: (obj) => Math.ceil(JSON.stringify(obj).length / 4) + 12,
  block(b) {
    if (b.type === "thinking") return Math.ceil(b.thinking.length / 3.4) + 4;
    if (b.type === "text") return Math.ceil(b.text.length / 3.8) + 2;
    if (b.type === "tool_use") return Math.ceil(JSON.stringify(b.input).length / 2.9) + 18;
    return 10;
  },
};

export const thinking = (text) => ({ type: "thinking", thinking: text });
export const text = (t) => ({ type: "text", text: t });
export const toolUse = (name, input, id) => ({ type: "tool_use", id, name, input });

function sortKeysDeep(v) {
  if (Array.isArray(v)) return v.map(sortKeysDeep);
  if (v && typeof v === "object") {
    const o = {};
    for (const k of Object.keys(v).sort()) o[k] = sortKeysDeep(v[k]);
    return o;
  }
  return v;
}

class Session {
  constructor(o) {
    this.sessionId = o.sessionId;
    this.cwd = o.cwd;
    this.version = o.version;
    this.gitBranch = o.gitBranch ?? "main";
    this.slug = o.slug ?? null;
    this.model = o.model ?? "claude-opus-4-6";
    this.agentId = o.agentId ?? null;
    this.isSidechain = Boolean(o.agentId);
    this.promptId = o.promptId ?? null;
    this.cacheTtl = o.cacheTtl ?? (this.isSidechain ? "5m" : "1h");
    this.idStyle = o.idStyle ?? "camel";
    this.id = ids(o.seed ?? `${o.sessionId}/${o.agentId ?? "main"}`);
    this.t = Date.parse(o.start ?? "2026-04-02T09:00:00.000Z");
    this.v = versionNum(o.version);
    this.modern = this.v >= 2001080; // envelope-last key order
    this.legacyUsage = this.v < 2001000; // 2.0.x: no final fragment
    this.entries = [];
    this.requests = [];
    this.last = null; // uuid of the last record in the parentUuid chain
    this.toolOwner = new Map(); // tool_use id -> uuid of the assistant record holding it
    this.ctx = null; // previous request: {total, cr, cc, input, trueOut}
    this.pending = 0; // estimated tokens added since the previous request
    this.nReq = 0;
  }

  /** Resume with another build: later records get this version's key order and usage shape. */
  setVersion(version, { model } = {}) {
    this.version = version;
    this.v = versionNum(version);
    this.modern = this.v >= 2001080;
    this.legacyUsage = this.v < 2001000;
    if (model) this.model = model;
  }

  tick(dt) {
    this.t += dt;
    return new Date(this.t).toISOString();
  }

  push(obj, text, eol = "\n") {
    const e = { line: this.entries.length + 1, text: text ?? JSON.stringify(obj), eol, obj };
    this.entries.push(e);
    return e;
  }

  /** Wraps a record body in the envelope, in the key order of this version. */
  env(body, { parent = this.last, promptId, idStyle = this.idStyle } = {}) {
    const o = { parentUuid: parent, isSidechain: this.isSidechain };
    const camel = idStyle !== "snake";
    const snake = idStyle !== "camel";
    if (!this.modern) {
      o.userType = "external";
      o.cwd = this.cwd;
      if (camel) o.sessionId = this.sessionId;
      o.version = this.version;
      o.gitBranch = this.gitBranch;
      if (this.slug) o.slug = this.slug;
      if (this.agentId) o.agentId = this.agentId;
      Object.assign(o, body);
      if (snake) o.session_id = this.sessionId;
      return o;
    }
    if (promptId) o.promptId = promptId;
    if (this.agentId) o.agentId = this.agentId;
    Object.assign(o, body);
    if (snake) o.session_id = this.sessionId;
    o.userType = "external";
    o.entrypoint = "cli";
    o.cwd = this.cwd;
    if (camel) o.sessionId = this.sessionId;
    o.version = this.version;
    o.gitBranch = this.gitBranch;
    if (this.slug) o.slug = this.slug;
    return o;
  }

  chain(body, opts) {
    const obj = this.env(body, opts);
    this.last = body.uuid;
    return this.push(obj);
  }

  fileHistorySnapshot(messageId, { dt = 0, isSnapshotUpdate = false, trackedFileBackups = {} } = {}) {
    const ts = this.tick(dt);
    return this.push({
      type: "file-history-snapshot",
      messageId,
      snapshot: { messageId, trackedFileBackups, timestamp: ts },
      isSnapshotUpdate,
    });
  }

  user(content, { snapshot = false, isMeta = false, dt = 14000, idStyle } = {}) {
    const uuid = this.id.uuid();
    const out = [];
    if (snapshot) out.push(this.fileHistorySnapshot(uuid, { dt }));
    if (!this.isSidechain && !isMeta && this.modern) this.promptId = this.id.uuid();
    const body = { type: "user", message: { role: "user", content } };
    if (isMeta) body.isMeta = true;
    body.uuid = uuid;
    body.timestamp = this.tick(snapshot ? 6 : dt);
    if (!isMeta) this.turnStart = this.t;
    if (this.modern && !this.isSidechain && !isMeta) body.permissionMode = "default";
    const chars = typeof content === "string" ? content.length : content.reduce((n, b) => n + (b.text?.length ?? 0), 0);
    this.pending += est.prompt(chars);
    out.push(this.chain(body, { promptId: this.modern ? this.promptId : undefined, idStyle }));
    return snapshot ? out : out[0];
  }

  usageFragment(u, { final, snapshotOut }) {
    const cc = u.cache_creation_input_tokens;
    const ttl = u.ttl ?? this.cacheTtl;
    const e5 = ttl === "5m" ? cc : 0;
    const e1 = ttl === "1h" ? cc : 0;
    if (this.legacyUsage) {
      return {
        input_tokens: u.input_tokens,
        cache_creation_input_tokens: cc,
        cache_read_input_tokens: u.cache_read_input_tokens,
        cache_creation: { ephemeral_5m_input_tokens: e5, ephemeral_1h_input_tokens: e1 },
        output_tokens: final ? u.output_tokens : snapshotOut,
        service_tier: "standard",
      };
    }
    if (!final) {
      return {
        input_tokens: u.input_tokens,
        cache_creation_input_tokens: cc,
        cache_read_input_tokens: u.cache_read_input_tokens,
        cache_creation: { ephemeral_5m_input_tokens: e5, ephemeral_1h_input_tokens: e1 },
        output_tokens: snapshotOut,
        service_tier: "standard",
        inference_geo: "not_available",
      };
    }
    const full = {
      input_tokens: u.input_tokens,
      cache_creation_input_tokens: cc,
      cache_read_input_tokens: u.cache_read_input_tokens,
      output_tokens: u.output_tokens,
      server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
      service_tier: "standard",
      cache_creation: { ephemeral_1h_input_tokens: e1, ephemeral_5m_input_tokens: e5 },
      inference_geo: "",
      iterations: [],
      speed: "standard",
    };
    if (this.v >= 2001090) {
      full.iterations = [{
        input_tokens: u.input_tokens,
        output_tokens: u.output_tokens,
        cache_read_input_tokens: u.cache_read_input_tokens,
        cache_creation_input_tokens: cc,
        cache_creation: { ephemeral_5m_input_tokens: e5, ephemeral_1h_input_tokens: e1 },
        type: "message",
      }];
    }
    return full;
  }

  /**
   * One API response written as one record per content block, all with the same message.id and
   * requestId. `base` = {input, cacheRead, cacheCreation}: required for the first request of a
   * chain, or to restart after a cold cache (resume); otherwise a request grows from the previous one. `placeholder`: no final fragment (stop_reason null and
   * output_tokens 3 everywhere) although the model really produced the blocks.
   */
  assistantSplit({ blocks, id, requestId, model, usage, base, input = 1, placeholder = false, stop, dt = 2600, gap = 450, snapshotOut, after }) {
    id ??= this.id.msgId();
    requestId ??= this.id.reqId();
    const n = ++this.nReq;
    blocks = blocks.map((b) => {
      if (b.type === "tool_use" && !b.id) b = { ...b, id: this.id.toolId() };
      if (b.type === "thinking" && !b.signature) b = { ...b, signature: this.id.signature() };
      if (b.type === "tool_use" && this.modern) b = { ...b, caller: { type: "direct" } };
      return b;
    });
    const trueOut = blocks.reduce((s, b) => s + est.block(b), 0);
    let u = usage;
    if (!u) {
      if (!this.ctx || base) {
        if (!base) throw new Error("first request of a chain needs `base` or `usage`");
        u = { input_tokens: base.input, cache_creation_input_tokens: base.cacheCreation, cache_read_input_tokens: base.cacheRead };
      } else {
        const total = this.ctx.total + this.ctx.trueOut + this.pending;
        const cr = this.ctx.cr + this.ctx.cc;
        u = { input_tokens: input, cache_read_input_tokens: cr, cache_creation_input_tokens: total - cr - input };
      }
      u.output_tokens = trueOut;
    }
    const total = u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens;
    this.ctx = { total, cr: u.cache_read_input_tokens, cc: u.cache_creation_input_tokens, input: u.input_tokens, trueOut: u.output_tokens };
    this.pending = 0;
    snapshotOut ??= placeholder ? 3 : 1 + (n % 3);
    const stopReason = stop ?? (blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn");
    const out = [];
    blocks.forEach((b, i) => {
      const final = !placeholder && i === blocks.length - 1;
      const msg = { model: model ?? this.model, id, type: "message", role: "assistant", content: [b] };
      msg.stop_reason = final && !this.legacyUsage ? stopReason : null;
      msg.stop_sequence = null;
      if (this.v >= 2001200) msg.stop_details = null;
      msg.usage = this.usageFragment(u, { final: final || (this.legacyUsage && i === blocks.length - 1), snapshotOut });
      if (this.v >= 2001200) msg.diagnostics = null;
      const uuid = this.id.uuid();
      const e = this.chain({ message: msg, requestId, type: "assistant", uuid, timestamp: this.tick(i === 0 ? dt : gap) });
      if (b.type === "tool_use") this.toolOwner.set(b.id, uuid);
      out.push(e);
      if (after) after(i, b, e); // e.g. a tool result written between two fragments
    });
    this.requests.push({ index: n, id, requestId, line: out[0].line, fragments: out.length, usage: u, placeholder, entries: out });
    return out;
  }

  toolResult(toolUseId, content, toolUseResult, { isError = false, dt = 900, idStyle } = {}) {
    const block = { tool_use_id: toolUseId, type: "tool_result", content, is_error: isError };
    const body = { type: "user", message: { role: "user", content: [block] }, uuid: this.id.uuid(), timestamp: this.tick(dt) };
    if (toolUseResult !== undefined) body.toolUseResult = toolUseResult;
    if (this.v >= 2001000) body.sourceToolAssistantUUID = this.toolOwner.get(toolUseId) ?? null;
    const chars = typeof content === "string" ? content.length : content.reduce((n, b) => n + (b.text?.length ?? 0), 0);
    this.pending += est.toolResult(chars);
    return this.chain(body, { promptId: this.modern ? this.promptId : undefined, idStyle });
  }

  attachment(att, { dt = 4, idStyle } = {}) {
    this.pending += est.attachment(att);
    return this.chain({ attachment: att, type: "attachment", uuid: this.id.uuid(), timestamp: this.tick(dt) }, { idStyle });
  }

  /** `turn_duration` without durationMs gets the time since the last prompt. */
  system(subtype, fields = {}, { dt = 30 } = {}) {
    const uuid = this.id.uuid();
    const timestamp = this.tick(dt);
    if (subtype === "turn_duration" && fields.durationMs === undefined && this.turnStart !== undefined) {
      fields = { durationMs: this.t - this.turnStart, ...fields };
    }
    return this.chain({ type: "system", subtype, ...fields, uuid, timestamp, isMeta: false });
  }

  /** `<synthetic>` assistant record (no API call); apiError: {status} sets isApiErrorMessage. */
  synthetic(textValue, { apiError, dt = 1200 } = {}) {
    const uuid = this.id.uuid();
    const message = {
      id: this.id.uuid(),
      container: null,
      model: "<synthetic>",
      role: "assistant",
      stop_reason: "stop_sequence",
      stop_sequence: "",
      type: "message",
      usage: {
        input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0,
        server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 }, service_tier: null,
        cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
        inference_geo: null, iterations: null, speed: null,
      },
      content: [{ type: "text", text: textValue }],
      context_management: null,
    };
    const body = { type: "assistant", uuid, timestamp: this.tick(dt), message, isApiErrorMessage: Boolean(apiError) };
    if (apiError?.status) body.apiErrorStatus = apiError.status;
    return this.chain(body);
  }

  queueOperation(operation, content, { dt = 3 } = {}) {
    const o = { type: "queue-operation", operation, timestamp: this.tick(dt), sessionId: this.sessionId };
    if (content !== undefined) o.content = content;
    return this.push(o);
  }

  lastPrompt(lastPromptText) {
    return this.push({ type: "last-prompt", lastPrompt: lastPromptText, sessionId: this.sessionId });
  }

  /**
   * Old (2.1.14 - 2.1.7x) `progress` record of type agent_progress, embedding one record of the
   * subagent: the same message (id, content), usage keys re-ordered as those records have them.
   */
  progressAgent({ agentId, prompt, parentToolUseID, embed, dt = 20 }) {
    const src = embed.obj;
    const inner = { type: src.type, message: src.type === "assistant" ? sortUsage(src.message) : src.message };
    if (src.requestId) inner.requestId = src.requestId;
    inner.uuid = src.uuid;
    inner.timestamp = src.timestamp;
    const body = {
      type: "progress",
      data: { message: inner, normalizedMessages: [], type: "agent_progress", prompt, agentId },
      toolUseID: "agent_msg_" + (src.message.id ?? this.id.msgId()).replace(/^msg_/, ""),
      parentToolUseID,
      uuid: this.id.uuid(),
      timestamp: this.tick(dt),
    };
    const obj = this.env(body, { parent: this.toolOwner.get(parentToolUseID) ?? this.last });
    return this.push(obj); // a side branch: `last` is not moved
  }

  raw(textValue, eol = "\n") {
    return this.push(null, textValue, eol);
  }

  record(obj) {
    return this.push(obj);
  }

  text() {
    return this.entries.map((e) => e.text + e.eol).join("");
  }

  write(path) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, this.text());
    return path;
  }
}

function sortUsage(message) {
  const m = { ...message };
  if (m.usage) m.usage = sortKeysDeep(m.usage);
  if (!("context_management" in m)) m.context_management = null;
  return m;
}

export function session(opts) {
  return new Session(opts);
}

export function writeText(path, content) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

// ---------------------------------------------------------------------------------------------
// Reference analysis: the rules EXPECTED.md files are computed with.

export const KNOWN_TYPES = new Set([
  "user", "assistant", "attachment", "system", "progress", "content-replacement",
  "file-history-snapshot", "queue-operation", "summary", "custom-title", "ai-title", "last-prompt",
  "tag", "mode", "pr-link", "agent-name", "worktree-state", "permission-mode", "file-history-delta",
  "bridge-session", "atis-latch", "frame-link", "relocated", "prompt_snapshot",
]);

/** Physical lines: split on "\n", a trailing "\r" stripped, a BOM stripped from line 1. */
export function physicalLines(fileText) {
  const parts = fileText.split("\n");
  if (parts[parts.length - 1] === "") parts.pop();
  return parts.map((p, i) => {
    let s = p.endsWith("\r") ? p.slice(0, -1) : p;
    if (i === 0 && s.startsWith("\uFEFF")) s = s.slice(1);
    return s;
  });
}

export function classify(line) {
  if (line === "") return { kind: "blank" };
  let v;
  let damaged;
  try {
    v = JSON.parse(line);
  } catch (e) {
    // NUL runs (and whitespace) a line starts or ends with are crash remnants: the record between them is read,
    // the line damaged. A NUL between them, or nothing but NULs, leaves no record.
    const lead = /^[\0 \t\r\n]*/.exec(line)[0];
    const tail = lead.length < line.length ? /[\0 \t\r\n]*$/.exec(line)[0] : "";
    const body = line.slice(lead.length, line.length - tail.length);
    if (!line.includes("\0") || body === "" || body.includes("\0")) return { kind: "malformed", reason: "invalid JSON" };
    try {
      v = JSON.parse(body);
    } catch {
      return { kind: "malformed", reason: "invalid JSON" };
    }
    damaged = [lead.includes("\0") ? "NUL bytes before the record" : "", tail.includes("\0") ? "NUL bytes after the record" : ""].filter(Boolean).join(", ");
  }
  if (damaged && v !== null && typeof v === "object" && !Array.isArray(v)) {
    const c = classify(JSON.stringify(v));
    return { ...c, damaged };
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    const what = Array.isArray(v) ? "array" : v === null ? "null" : typeof v;
    return { kind: "malformed", reason: `not an object (${what})` };
  }
  if (typeof v.type !== "string") return { kind: "unknown", type: null, value: v };
  if (!KNOWN_TYPES.has(v.type)) return { kind: "unknown", type: v.type, value: v };
  return { kind: "ok", type: v.type, value: v };
}

function resultChars(content) {
  if (typeof content === "string") return content.length;
  if (Array.isArray(content)) return content.reduce((n, b) => n + (b?.type === "text" && typeof b.text === "string" ? b.text.length : 0), 0);
  return 0;
}

/**
 * Requests of one chain (one file): grouped by message.id (fallback requestId, uuid), usage = max
 * per field over fragments, `<synthetic>` / isApiErrorMessage records set apart, `progress`
 * records ignored. Content records (tool results, user text, attachments) are credited to the
 * first request whose first fragment comes after them in the file.
 */
export function analyzeTranscript(fileText) {
  const lines = physicalLines(fileText).map((s, i) => ({ line: i + 1, ...classify(s) }));
  const reqs = new Map();
  const order = [];
  const synthetic = [];
  let pending = newAdded();
  for (const l of lines) {
    if (l.kind !== "ok") continue;
    const r = l.value;
    if (r.type === "assistant") {
      const m = r.message ?? {};
      if (m.model === "<synthetic>" || r.isApiErrorMessage === true) {
        synthetic.push({ line: l.line, model: m.model, isApiErrorMessage: r.isApiErrorMessage === true, text: m.content?.[0]?.text });
        continue;
      }
      const key = m.id ?? r.requestId ?? r.uuid;
      let q = reqs.get(key);
      if (!q) {
        q = { messageId: m.id, requestId: r.requestId, model: m.model, line: l.line, timestamp: r.timestamp, fragments: 0,
          input: 0, cacheCreation: 0, cache5m: 0, cache1h: 0, cacheRead: 0, output: 0, stopReasons: [], added: pending };
        pending = newAdded();
        reqs.set(key, q);
        order.push(q);
      }
      const u = m.usage ?? {};
      q.fragments++;
      q.input = Math.max(q.input, u.input_tokens ?? 0);
      q.cacheCreation = Math.max(q.cacheCreation, u.cache_creation_input_tokens ?? 0);
      q.cache5m = Math.max(q.cache5m, u.cache_creation?.ephemeral_5m_input_tokens ?? 0);
      q.cache1h = Math.max(q.cache1h, u.cache_creation?.ephemeral_1h_input_tokens ?? 0);
      q.cacheRead = Math.max(q.cacheRead, u.cache_read_input_tokens ?? 0);
      q.output = Math.max(q.output, u.output_tokens ?? 0);
      q.stopReasons.push(m.stop_reason ?? null);
    } else if (r.type === "user") {
      const c = r.message?.content;
      if (typeof c === "string") pending.userTextChars += c.length;
      else if (Array.isArray(c)) {
        for (const b of c) {
          if (b?.type === "tool_result") { pending.toolResults++; pending.toolResultChars += resultChars(b.content); }
          else if (b?.type === "text") pending.userTextChars += b.text.length;
        }
      }
    } else if (r.type === "attachment") {
      pending.attachments++;
      pending.attachmentKinds.push(r.attachment?.type ?? null);
    }
  }
  let prev = null;
  const requests = order.map((q, i) => {
    const total = q.input + q.cacheCreation + q.cacheRead;
    const out = {
      index: i + 1, line: q.line, messageId: q.messageId, requestId: q.requestId, model: q.model, timestamp: q.timestamp,
      fragments: q.fragments, inputTokens: q.input, cacheCreationInputTokens: q.cacheCreation,
      cacheCreation5m: q.cache5m, cacheCreation1h: q.cache1h, cacheReadInputTokens: q.cacheRead,
      totalInputTokens: total, deltaTokens: prev === null ? null : total - prev, outputTokens: q.output,
      outputPlaceholder: q.stopReasons.every((s) => s === null), stopReason: q.stopReasons.find((s) => s !== null) ?? null,
      added: q.added,
    };
    prev = total;
    return out;
  });
  return {
    lines, requests, synthetic, trailing: pending,
    malformed: lines.filter((l) => l.kind === "malformed").map(({ line, reason }) => ({ line, reason })),
    unknown: lines.filter((l) => l.kind === "unknown").map(({ line, type }) => ({ line, type })),
  };
}

function newAdded() {
  return { toolResults: 0, toolResultChars: 0, userTextChars: 0, attachments: 0, attachmentKinds: [] };
}

export function totals(requests) {
  const t = { requests: requests.length, inputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, totalInputTokens: 0, outputTokens: 0 };
  for (const r of requests) {
    t.inputTokens += r.inputTokens;
    t.cacheCreationInputTokens += r.cacheCreationInputTokens;
    t.cacheReadInputTokens += r.cacheReadInputTokens;
    t.totalInputTokens += r.totalInputTokens;
    t.outputTokens += r.outputTokens;
  }
  return t;
}

/** Markdown table of requests, one row per request. */
export function requestsTable(requests) {
  const head = "| # | line | messageId | requestId | frags | input | cache creation (5m / 1h) | cache read | total input | delta | output | placeholder | tool results (chars) | user text chars | attachments |";
  const sep = "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|";
  const rows = requests.map((r) =>
    `| ${r.index} | ${r.line} | \`${r.messageId}\` | \`${r.requestId}\` | ${r.fragments} | ${r.inputTokens} | ${r.cacheCreationInputTokens} (${r.cacheCreation5m} / ${r.cacheCreation1h}) | ${r.cacheReadInputTokens} | ${r.totalInputTokens} | ${r.deltaTokens ?? "—"} | ${r.outputTokens} | ${r.outputPlaceholder ? "yes" : "no"} | ${r.added.toolResults} (${r.added.toolResultChars}) | ${r.added.userTextChars} | ${r.added.attachments}${r.added.attachments ? " (" + r.added.attachmentKinds.join(", ") + ")" : ""} |`);
  return [head, sep, ...rows].join("\n");
}
