// A many-session config dir with MCP traffic, for `servers` and `export` at scale (not committed data; run into /tmp):
//   node bench/gen-fleet.mjs N DIR     N sessions over 10 projects and 4 servers: instructions (some cut at the cap),
//                                      a deferred-tools list, one MCP call whose result is inline, saved by the size
//                                      check or replaced by the token check, then a Read of the saved file.
// Then e.g. `/usr/bin/time -v node dist/cli.js export --claude-dir DIR --to /tmp/out`.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const SERVERS = ["alpha", "beta", "gamma", "delta"];
const uuid = (n) => `f1ee7000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
const time = (i, s) => new Date(Date.UTC(2026, 9, 1) + i * 60_000 + s * 1000).toISOString();

/** The records of session `i`, as Claude Code 2.1.x writes them. */
export function fleetSession(i) {
  const sid = uuid(i);
  const server = SERVERS[i % SERVERS.length];
  const kind = ["inline", "size", "token"][i % 3];
  const cwd = `/home/fleet/p${i % 10}`;
  const env = (s, extra) => ({ sessionId: sid, cwd, version: "2.1.285", timestamp: time(i, s), uuid: `${sid}-${s}`, ...extra });
  const usage = (cacheRead, create) => ({
    input_tokens: 3,
    cache_creation_input_tokens: create,
    cache_read_input_tokens: cacheRead,
    output_tokens: 20,
  });
  const dir = `~/.claude/projects/-home-fleet-p${i % 10}/${sid}/tool-results`;
  const toolId = `toolu_${String(i).padStart(20, "0")}`;
  const text = i % 5 === 0 ? `${"i".repeat(2048)}… [truncated]` : `Use ${server} for lookups. `.repeat(20);
  const chars = kind === "inline" ? 4_000 + i : kind === "size" ? 52_000 : 66_000;
  const content =
    kind === "inline"
      ? "x".repeat(chars)
      : kind === "size"
        ? `<persisted-output>\nOutput too large (51.7KB). Full output saved to: ${dir}/${toolId}.json\n\nPreview (first 2KB):\n[\n  {\n    "type": "text",\n    "text": "${"p".repeat(1900)}\n...\n</persisted-output>`
        : `Error: result (66,000 characters) exceeds maximum allowed tokens. Output has been saved to ${dir}/mcp-${server}-fetch-1789556911031.txt.\nFormat: Plain text\nUse offset and limit parameters to read specific portions of the file, search within it for specific content, and jq to make structured queries.`;
  const saved = kind === "size" ? `${dir}/${toolId}.json` : kind === "token" ? `${dir}/mcp-${server}-fetch-1789556911031.txt` : null;
  const recs = [
    { type: "user", message: { role: "user", content: `Call mcp__${server}__fetch for item ${i}.` }, ...env(0) },
    {
      type: "attachment",
      attachment: {
        type: "deferred_tools_delta",
        addedNames: ["WebFetch", `mcp__${server}__fetch`, `mcp__${server}__list`],
        removedNames: [],
      },
      ...env(1),
    },
    {
      type: "attachment",
      attachment: { type: "mcp_instructions_delta", addedNames: [server], addedBlocks: [`## ${server}\n${text}`], removedNames: [] },
      ...env(2),
    },
    {
      type: "assistant",
      requestId: `req_${i}_1`,
      message: {
        id: `msg_${i}_1`,
        model: "claude-fleet",
        role: "assistant",
        stop_reason: "tool_use",
        content: [{ type: "tool_use", id: toolId, name: `mcp__${server}__fetch`, input: { item: i } }],
        usage: usage(10_000, 3_000),
      },
      ...env(3),
    },
    {
      type: "user",
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: toolId, content }] },
      toolUseResult: [{ type: "text", text: "x".repeat(chars) }],
      ...env(4),
    },
    {
      type: "assistant",
      requestId: `req_${i}_2`,
      message: {
        id: `msg_${i}_2`,
        model: "claude-fleet",
        role: "assistant",
        stop_reason: saved ? "tool_use" : "end_turn",
        content: saved
          ? [{ type: "tool_use", id: `${toolId}r`, name: "Read", input: { file_path: saved, offset: 1, limit: 50 } }]
          : [{ type: "text", text: "done" }],
        usage: usage(13_000, kind === "inline" ? 1_500 + (i % 100) : 1_000 + (i % 7)),
      },
      ...env(5),
    },
  ];
  if (saved) {
    recs.push(
      {
        type: "user",
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: `${toolId}r`, content: "1\tline" }] },
        ...env(6),
      },
      {
        type: "assistant",
        requestId: `req_${i}_3`,
        message: {
          id: `msg_${i}_3`,
          model: "claude-fleet",
          role: "assistant",
          stop_reason: "end_turn",
          content: [{ type: "text", text: "ok" }],
          usage: usage(14_500, 40),
        },
        ...env(7),
      },
    );
  }
  const file = saved === null ? null : saved.slice(saved.lastIndexOf("/") + 1);
  return { sid, project: `-home-fleet-p${i % 10}`, file, chars, lines: recs.map((r) => JSON.stringify(r)).join("\n") + "\n" };
}

export function genFleet(dir, n) {
  for (let i = 0; i < n; i++) {
    const s = fleetSession(i);
    const project = join(dir, "projects", s.project);
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, `${s.sid}.jsonl`), s.lines);
    if (s.file === null) continue;
    const results = join(project, s.sid, "tool-results");
    mkdirSync(results, { recursive: true });
    const text = "x".repeat(s.chars);
    writeFileSync(join(results, s.file), s.file.endsWith(".json") ? JSON.stringify([{ type: "text", text }], null, 2) : text);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [count, target] = process.argv.slice(2);
  const n = Number(count);
  if (!target || !Number.isSafeInteger(n) || n < 0) {
    process.stderr.write("usage: node bench/gen-fleet.mjs N DIR\n");
    process.exit(2);
  }
  genFleet(target, n);
}
