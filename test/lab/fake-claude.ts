import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A stand-in for `claude -p --output-format stream-json --verbose`, written into a temp dir by the
 * tests: it reads its args, starts every MCP server of --mcp-config and shakes hands the way Claude
 * Code 2.1.285 did in seed 000 (server/discover probe, then initialize on -32601, else modern
 * tools/list), so the lab's message log is real; it cuts the instructions at 2,048 chars (or
 * CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH), answers BEGIN=… END=… LAST=… from what it kept, writes a
 * debug file, and prints an init and a result event. FAKE_EXIT sets its exit code.
 * What it saw of its own environment goes into the debug file as `fake: KEY=value` lines.
 */
const SCRIPT = String.raw`#!/usr/bin/env node
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { randomUUID } from "node:crypto";

const argv = process.argv.slice(2);
const opt = (name) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
const prompt = opt("-p");
const cfg = JSON.parse(readFileSync(opt("--mcp-config"), "utf8"));
const debugFile = opt("--debug-file");
const session = process.env.FAKE_SESSION || randomUUID();
const limit = /^\d+$/.test(process.env.CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH || "") ? Number(process.env.CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH) : 2048;
const debug = [];
const log = (s) => debug.push(new Date().toISOString() + " [DEBUG] " + s);
for (const k of ["CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "FAKE_MARK", "CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH"]) log("fake: " + k + "=" + (process.env[k] ?? "<unset>"));
log("fake: cwd=" + process.cwd());
log("fake: settings=" + opt("--settings"));
log("fake: argv=" + JSON.stringify(argv));

const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "claude-code", version: "9.9.9-fake" } };

function connect(name, entry) {
  return new Promise((resolve) => {
    const child = spawn(entry.command, entry.args ?? [], { env: { ...process.env, ...(entry.env ?? {}) }, stdio: ["pipe", "pipe", "pipe"] });
    const waiting = new Map();
    createInterface({ input: child.stdout }).on("line", (l) => { const m = JSON.parse(l); waiting.get(m.id)?.(m); });
    child.stderr.on("data", (d) => log("MCP server \"" + name + "\": Server stderr: " + String(d).trim()));
    const ask = (id, method, params) => new Promise((res) => { waiting.set(id, res); child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n"); });
    (async () => {
      let instructions, era;
      const probe = await ask("server-discover-probe-1", "server/discover", { _meta: meta });
      if (probe.result) {
        era = "modern";
        instructions = probe.result.instructions;
        await ask(1, "tools/list", { _meta: meta });
      } else {
        era = "legacy";
        const init = await ask(1, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "claude-code", version: "9.9.9-fake" } });
        instructions = init.result.instructions;
        child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
        await ask(2, "tools/list", {});
      }
      log("MCP server \"" + name + "\": connected, protocolEra " + era);
      if (instructions !== undefined && instructions.length > limit) log("MCP server \"" + name + "\": Server instructions truncated from " + instructions.length + " to " + limit + " chars");
      child.stdin.end();
      child.on("close", () => resolve({ name, instructions, era }));
    })();
  });
}

const servers = await Promise.all(Object.entries(cfg.mcpServers).map(([n, e]) => connect(n, e)));
const text = servers.map((s) => s.instructions ?? "").join("\n");
const kept = text.length > limit ? text.slice(0, limit) + "… [truncated]" : text;
const begin = /BEGIN codeword: ([A-Z]+-\d+)\./.exec(kept)?.[1] ?? "NONE";
const end = /END codeword: ([A-Z]+-\d+)\./.exec(kept)?.[1] ?? "NONE";
const markers = [...kept.matchAll(/\[at (\d+)\]/g)].map((m) => Number(m[1]));
const answer = "BEGIN=" + begin + " END=" + end + " LAST=" + (markers.length ? Math.max(...markers) : "NONE");
if (debugFile) writeFileSync(debugFile, debug.join("\n") + "\n");
const out = (o) => process.stdout.write(JSON.stringify(o) + "\n");
out({ type: "system", subtype: "init", cwd: process.cwd(), session_id: session, tools: [], mcp_servers: servers.map((s) => ({ name: s.name, status: "connected" })), model: "claude-fake-1", claude_code_version: "9.9.9-fake" });
out({ type: "result", subtype: "success", is_error: false, duration_ms: 5, num_turns: 1, result: answer, session_id: session, total_cost_usd: 0, usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } });
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
