import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TRUNCATION_MARKER } from "../../src/records/mcp-instructions.js";
import { assistant, attachment, jsonl, userText } from "../builders.js";
import { parseEnvelope, runCli } from "../helpers.js";

// A Claude Desktop mcp.log of two servers (`<ts> [server] …` lines) beside a session whose reminder carries the
// instructions of both: each server's text is held against its own handshake, never the log's last one.
const dir = mkdtempSync(join(tmpdir(), "ccf-desktop-servers-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

const HEAD =
  "<system-reminder>\n# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n";
const ALPHA = "BEGIN alpha: ALPHA-1111. Alpha's own instructions, long enough to be cut. END alpha: ALPHA-2222.";
const BETA = "BEGIN beta: BETA-3333. Beta's instructions. END beta: BETA-4444.";

const line = (ms: number, server: string, from: "client" | "server", m: object) =>
  `${new Date(Date.UTC(2026, 8, 30, 10, 0, 0) + ms).toISOString()} [${server}] [info] Message from ${from}: ${JSON.stringify(m)}`;
const init = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "claude-ai", version: "0.1" } },
});
// serverInfo names that are not the config's: only the log's `[server]` says whose answer it is.
const answer = (id: number, name: string, instructions: string) => ({
  jsonrpc: "2.0",
  id,
  result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name, version: "1" }, instructions },
});

/** alpha shakes hands first, beta last (the log's last non-probe handshake is beta's); each then lists its tools. */
const LOG = join(dir, "mcp.log");
writeFileSync(
  LOG,
  [
    line(0, "alpha", "client", init(0)),
    line(1, "alpha", "server", answer(0, "alpha-mcp-server", ALPHA)),
    line(2, "beta", "client", init(0)),
    line(3, "beta", "server", answer(0, "beta-mcp-server", BETA)),
    line(4, "alpha", "client", { jsonrpc: "2.0", id: 1, method: "tools/list" }),
    line(5, "beta", "client", { jsonrpc: "2.0", id: 1, method: "tools/list" }),
  ].join("\n") + "\n",
);

function session(name: string, blocks: Array<[string, string]>): string {
  const file = join(dir, `${name}.jsonl`);
  const names = blocks.map(([s]) => `mcp__${s}__lookup`);
  const delta = attachment({ type: "deferred_tools_delta", addedNames: names, addedLines: names, removedNames: [] });
  const reminder = `${HEAD}${blocks.map(([s, t]) => `## ${s}\n${t}`).join("\n\n")}\n</system-reminder>`;
  writeFileSync(file, jsonl(userText("a"), delta, userText(reminder, { isMeta: true }), assistant()));
  return file;
}

const rows = async (file: string) => {
  const r = await runCli(["instructions", file, "--rpc-log", LOG, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  return parseEnvelope(r, "instructions").instructions.map((x: any) => ({
    server: x.server,
    truncated: x.truncated,
    sourceChars: x.sourceChars,
    verbatimPrefix: x.verbatimPrefix,
    against: x.verbatimAgainst?.line ?? null,
  }));
};

test("two servers of a Desktop log: each row is held against its own server's answer (verbatim, source length)", async () => {
  const cut = ALPHA.slice(0, 40) + TRUNCATION_MARKER;
  const file = session("both", [
    ["alpha", cut],
    ["beta", BETA],
  ]);
  assert.deepEqual(await rows(file), [
    { server: "alpha", truncated: true, sourceChars: ALPHA.length, verbatimPrefix: true, against: 2 },
    { server: "beta", truncated: false, sourceChars: null, verbatimPrefix: true, against: 4 },
  ]);
});

test("a session of one server is not lent the log's last handshake when that is another server's", async () => {
  // The source length of a cut text is alpha's, not beta's (the log's last answer, longer than what was kept).
  const cut = session("alpha-cut", [["alpha", ALPHA.slice(0, 40) + TRUNCATION_MARKER]]);
  assert.deepEqual(await rows(cut), [{ server: "alpha", truncated: true, sourceChars: ALPHA.length, verbatimPrefix: true, against: 2 }]);
  // A text that is not what alpha sent differs from alpha's answer, not from beta's.
  const changed = session("alpha-changed", [["alpha", "BEGIN alpha: ALPHA-1111. Another text."]]);
  assert.deepEqual(await rows(changed), [{ server: "alpha", truncated: false, sourceChars: null, verbatimPrefix: false, against: 2 }]);
});

test("a server the Desktop log does not name gets no logged text (unknown, not another server's)", async () => {
  const file = session("gamma-only", [["gamma", "Gamma's instructions."]]);
  assert.deepEqual(await rows(file), [{ server: "gamma", truncated: false, sourceChars: null, verbatimPrefix: null, against: null }]);
});
