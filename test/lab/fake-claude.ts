import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A stand-in for `claude -p --output-format stream-json --verbose`, written into a temp dir by the
 * tests. It starts every MCP server of --mcp-config and shakes hands the way Claude Code 2.1.285 did
 * in seed 000: a `server/discover` probe; on an error, or no answer within FAKE_PROBE_TIMEOUT_MS
 * (default 10000), `initialize`; on a result, modern `tools/list`. A server that exits during the
 * handshake is "failed" and the others go on. It cuts each server's instructions at 2,048 chars (or
 * CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH) with the 13-char marker and answers BEGIN=… END=… LAST=…
 * from what it kept (one `name: …` part per server when there are several). A prompt "Call
 * mcp__<server>__<tool> once with chars=N" makes it call that tool. As seed 003 measured: a result
 * over 2 × MAX_MCP_OUTPUT_TOKENS chars (default 25,000; never for a tool that declares
 * maxResultSizeChars) gets a count_tokens line in the debug log, and over the limit at 2.6 chars a
 * token the token check's error with a saved .txt; else one over 50,000 chars (or the declared size)
 * a <persisted-output> stub with a saved .json, as the size check does. The answer is
 * END=<end marker or NOMARKER> CHARS=<text chars> [IMAGES=<bytes>]. With CLAUDE_CONFIG_DIR set it writes a transcript there (user prompt, the
 * mcp_instructions_delta attachment, requests with usage, tool_use/tool_result), as `compare` reads.
 * It writes a debug file and prints an init and a result event. FAKE_EXIT sets its exit code;
 * FAKE_FAIL=1 fails before any session exists (no stdout, exit 1), as a claude that cannot start.
 * What it saw of its own environment goes into the debug file as `fake: KEY=value` lines.
 * CLAUDE_CODE_MCP_STARTUP_WAIT_MS=N: the first request waits at most N ms for the servers; one still
 * connecting is "pending" in the init event, and its instructions delta is written after that request.
 */
const SCRIPT = String.raw`#!/usr/bin/env node
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { randomUUID } from "node:crypto";

if (process.env.FAKE_FAIL === "1") {
  process.stderr.write("Error: fake claude failed before the session started\n");
  process.exit(1);
}
const argv = process.argv.slice(2);
const opt = (name) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
const prompt = opt("-p") ?? "";
const cfg = JSON.parse(readFileSync(opt("--mcp-config"), "utf8"));
const debugFile = opt("--debug-file");
const session = process.env.FAKE_SESSION || randomUUID();
const limit = /^\d+$/.test(process.env.CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH || "") ? Number(process.env.CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH) : 2048;
const probeTimeout = Number(process.env.FAKE_PROBE_TIMEOUT_MS || 10000);
const debug = [];
const log = (s) => debug.push(new Date().toISOString() + " [DEBUG] " + s);
for (const k of ["CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "FAKE_MARK", "CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH"]) log("fake: " + k + "=" + (process.env[k] ?? "<unset>"));
log("fake: cwd=" + process.cwd());
log("fake: settings=" + opt("--settings"));
log("fake: argv=" + JSON.stringify(argv));

const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "claude-code", version: "9.9.9-fake" } };

async function connect(name, entry) {
  const child = spawn(entry.command, entry.args ?? [], { env: { ...process.env, ...(entry.env ?? {}) }, stdio: ["pipe", "pipe", "pipe"] });
  const waiting = new Map();
  let exited = null;
  createInterface({ input: child.stdout }).on("line", (l) => { const m = JSON.parse(l); waiting.get(m.id)?.(m); });
  child.stderr.on("data", (d) => log("MCP server \"" + name + "\": Server stderr: " + String(d).trim()));
  const closed = new Promise((res) => child.on("close", (code) => { exited = code; res(); }));
  child.stdin.on("error", () => {});
  const ask = (id, method, params, ms) => new Promise((res) => {
    waiting.set(id, res);
    closed.then(() => res({ closed: true }));
    // unref: a pending timeout must not keep the fake alive after its last answer.
    if (ms) setTimeout(() => res({ timeout: true }), ms).unref();
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
  });
  const srv = { name, status: "failed", era: null, instructions: undefined, tools: [], ask, end: () => { child.stdin.end(); return closed; } };
  const failed = () => { log("MCP server \"" + name + "\": Connection failed: process exited with code " + exited); return srv; };
  const probe = await ask("server-discover-probe-1", "server/discover", { _meta: meta }, probeTimeout);
  if (probe.closed) return failed();
  if (probe.result) {
    srv.era = "modern";
    srv.instructions = probe.result.instructions;
    const list = await ask(1, "tools/list", { _meta: meta }, 5000);
    if (list.closed) return failed();
    srv.tools = list.result?.tools ?? [];
  } else {
    if (probe.timeout) log("MCP server \"" + name + "\": server/discover timed out after " + probeTimeout + " ms; falling back to initialize");
    srv.era = "legacy";
    const init = await ask(1, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "claude-code", version: "9.9.9-fake" } }, 20000);
    if (init.closed || !init.result) return failed();
    srv.instructions = init.result.instructions;
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
    const list = await ask(2, "tools/list", {}, 5000);
    if (list.closed) return failed();
    srv.tools = list.result?.tools ?? [];
  }
  srv.status = "connected";
  log("MCP server \"" + name + "\": connected, protocolEra " + srv.era);
  if (srv.instructions !== undefined && srv.instructions.length > limit) log("MCP server \"" + name + "\": Server instructions truncated from " + srv.instructions.length + " to " + limit + " chars");
  return srv;
}

// CLAUDE_CODE_MCP_STARTUP_WAIT_MS: how long the first request waits for the servers; a server not connected by
// then is "pending" in the init event and its instructions reach no request before it connects.
const startupWait = /^\d+$/.test(process.env.CLAUDE_CODE_MCP_STARTUP_WAIT_MS || "") ? Number(process.env.CLAUDE_CODE_MCP_STARTUP_WAIT_MS) : undefined;
const connecting = Object.entries(cfg.mcpServers).map(([n, e]) => connect(n, e));
// In config order, whichever connects first (the order of their instructions is the config's).
const onTime = [];
connecting.forEach((p, i) => p.then((s) => (onTime[i] = s)));
if (startupWait === undefined) await Promise.all(connecting);
else await Promise.race([Promise.all(connecting), new Promise((res) => setTimeout(res, startupWait).unref())]);
const ready = onTime.filter(Boolean);
const servers = ready;
const initStatuses = Object.keys(cfg.mcpServers).map((n) => ({ name: n, status: ready.find((s) => s.name === n)?.status ?? "pending" }));
const cut = (t) => (t.length > limit ? t.slice(0, limit) + "… [truncated]" : t);
const blocks = ready.filter((s) => s.status === "connected" && s.instructions !== undefined).map((s) => ({ name: s.name, text: cut(s.instructions) }));
const probeOf = (kept) => {
  const begin = /BEGIN codeword: ([A-Z]+-\d+)\./.exec(kept)?.[1] ?? "NONE";
  const end = /END codeword: ([A-Z]+-\d+)\./.exec(kept)?.[1] ?? "NONE";
  const markers = [...kept.matchAll(/\[at (\d+)\]/g)].map((m) => Number(m[1]));
  return "BEGIN=" + begin + " END=" + end + " LAST=" + (markers.length ? Math.max(...markers) : "NONE");
};

const now = () => new Date().toISOString();
const cwd = process.cwd();
const records = [];
let parent = null;
const rec = (r) => { const uuid = randomUUID(); records.push({ parentUuid: parent, isSidechain: false, ...r, uuid, timestamp: now(), cwd, sessionId: session, version: "9.9.9-fake" }); parent = uuid; };
let tokens = 3000;
const request = (content, stop) => rec({ type: "assistant", message: { model: "claude-fake-1", id: "msg_" + randomUUID().replace(/-/g, ""), type: "message", role: "assistant", content, stop_reason: stop, usage: { input_tokens: 3, cache_creation_input_tokens: tokens, cache_read_input_tokens: 0, output_tokens: 20 } } });
rec({ type: "user", message: { role: "user", content: prompt } });
if (blocks.length) {
  const added = blocks.map((b) => "## " + b.name + "\n" + b.text);
  const content = "<system-reminder>\n# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n" + added.join("\n\n") + "\n</system-reminder>";
  rec({ type: "attachment", attachment: { type: "mcp_instructions_delta", addedNames: blocks.map((b) => b.name), addedBlocks: added, removedNames: [], content } });
  tokens += Math.round(content.length / 3);
}

let answer;
const call = /Call mcp__([A-Za-z0-9_-]+)__(\w+) once with chars=(\d+)/.exec(prompt);
if (call) {
  const [, sname, tool, n] = call;
  const srv = servers.find((s) => s.name === sname && s.status === "connected");
  const def = srv?.tools.find((t) => t.name === tool);
  const id = "toolu_" + randomUUID().replace(/-/g, "").slice(0, 24);
  request([{ type: "tool_use", id, name: "mcp__" + sname + "__" + tool, input: { chars: Number(n) } }], "tool_use");
  const res = srv && def ? await srv.ask(100, "tools/call", { name: tool, arguments: { chars: Number(n) } }, 60000) : { error: { message: "No such tool available: mcp__" + sname + "__" + tool } };
  const content = res.result?.content ?? [];
  const text = content.filter((c) => c.type === "text").map((c) => c.text).join("");
  const images = content.filter((c) => c.type === "image").map((c) => Buffer.from(c.data, "base64").length);
  const declared = def?._meta?.["anthropic/maxResultSizeChars"];
  const cap = Math.max(50000, declared ?? 0);
  const maxTokens = /^\d+$/.test(process.env.MAX_MCP_OUTPUT_TOKENS || "") ? Number(process.env.MAX_MCP_OUTPUT_TOKENS) : 25000;
  const dir = join(process.env.CLAUDE_CONFIG_DIR || "/nonexistent-fake-home", "projects", cwd.replace(/[^A-Za-z0-9]/g, "-"), session, "tool-results");
  const save = (name, body) => {
    if (process.env.CLAUDE_CONFIG_DIR) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, name), body);
    }
    log("Persisted tool result to " + join(dir, name) + " (" + (body.length / 1024).toFixed(1) + "KB)");
    return join(dir, name);
  };
  // The token check counts only results long in chars (seed 003: 2 × the limit), and not an annotated tool's.
  const counted = !res.error && declared === undefined && text.length > 2 * maxTokens;
  if (counted) log("[API REQUEST] /v1/messages/count_tokens x-client-request-id=" + randomUUID() + " source=sdk");
  let seen = text;
  if (res.error) seen = "Error: " + res.error.message;
  else if (counted && text.length / 2.6 > maxTokens) {
    const path = save("mcp-" + sname + "-" + tool + "-" + Date.now() + ".txt", text);
    seen = "Error: result (" + text.length.toLocaleString("en-US") + " characters) exceeds maximum allowed tokens. Output has been saved to " + path + ".\nFormat: Plain text\nUse offset and limit parameters to read specific portions of the file, search within it for specific content, and jq to make structured queries.";
  } else if (text.length > cap) {
    const json = JSON.stringify(content, null, 2);
    const path = save(id + ".json", json);
    seen = "<persisted-output>\nOutput too large (" + (json.length / 1024).toFixed(1) + "KB). Full output saved to: " + path + "\n\nPreview (first 2KB):\n" + json.slice(0, 2048) + "\n...\n</persisted-output>";
  }
  rec({ type: "user", message: { role: "user", content: [{ tool_use_id: id, type: "tool_result", content: seen }] }, toolUseResult: content });
  tokens += 40 + Math.round(seen.length / 2.6) + images.length * 100;
  const end = /END-MARKER: (end-[0-9a-f]+)/.exec(seen)?.[1] ?? "NOMARKER";
  answer = "END=" + end + " CHARS=" + text.length + (images.length ? " IMAGES=" + images.join(",") : "");
} else {
  answer = blocks.length <= 1 ? probeOf(blocks[0]?.text ?? "") : blocks.map((b) => b.name + ": " + probeOf(b.text)).join(" | ");
}
request([{ type: "text", text: answer }], "end_turn");
// The servers that missed the first request: they connect later, and their delta lands after it.
const all = await Promise.all(connecting);
const lateBlocks = all.filter((s) => !ready.includes(s) && s.status === "connected" && s.instructions !== undefined).map((s) => ({ name: s.name, text: cut(s.instructions) }));
if (lateBlocks.length) {
  const added = lateBlocks.map((b) => "## " + b.name + "\n" + b.text);
  const content = "<system-reminder>\n# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n" + added.join("\n\n") + "\n</system-reminder>";
  rec({ type: "attachment", attachment: { type: "mcp_instructions_delta", addedNames: lateBlocks.map((b) => b.name), addedBlocks: added, removedNames: [], content } });
}
await Promise.all(all.map((s) => s.end()));

if (process.env.CLAUDE_CONFIG_DIR) {
  const dir = join(process.env.CLAUDE_CONFIG_DIR, "projects", cwd.replace(/[^A-Za-z0-9]/g, "-"));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, session + ".jsonl"), records.map((r) => JSON.stringify(r)).join("\n") + "\n");
}
if (debugFile) writeFileSync(debugFile, debug.join("\n") + "\n");
const out = (o) => process.stdout.write(JSON.stringify(o) + "\n");
out({ type: "system", subtype: "init", cwd, session_id: session, tools: [], mcp_servers: initStatuses, model: "claude-fake-1", claude_code_version: "9.9.9-fake" });
out({ type: "result", subtype: "success", is_error: false, duration_ms: 5, num_turns: call ? 2 : 1, result: answer, session_id: session, total_cost_usd: 0.01, usage: { input_tokens: 3, output_tokens: 20, cache_read_input_tokens: 0, cache_creation_input_tokens: tokens } });
process.stderr.write(prompt ? "" : "no prompt\n");
process.exitCode = Number(process.env.FAKE_EXIT || 0);
`;

/** Writes the fake as `<dir>/bin/claude` (executable) and returns that dir, for PATH. */
export function writeFakeClaude(dir: string): string {
  const bin = join(dir, "bin");
  mkdirSync(bin, { recursive: true });
  const path = join(bin, "claude");
  writeFileSync(path, SCRIPT);
  // ESM without an .mjs name: the nearest package.json says so.
  writeFileSync(join(bin, "package.json"), '{"type": "module"}\n');
  chmodSync(path, 0o755);
  return bin;
}
