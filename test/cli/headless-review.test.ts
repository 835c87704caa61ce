import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, runCli } from "../helpers.js";
import { assertOwnMarkupOnly, toHtml, visibleText } from "../render/html-check.js";

// claude -p outputs as a review built them (s01 init vs debug, s02 multi-turn, s03 versions, s06 subagent stream):
// what the result's errors and denials say, the init statuses beside the debug log's, a subagent's model, old output.
const dir = mkdtempSync(join(tmpdir(), "ccf-headless-review-"));
const put = (name: string, lines: unknown[]) => {
  const p = join(dir, name);
  writeFileSync(p, lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n");
  return p;
};

const SID = (n: number) => `${n}${n}${n}${n}${n}${n}${n}${n}-aaaa-4bbb-8ccc-00000000000${n}`;
const usage = (i: number, cc: number, cr: number, o: number) => ({
  input_tokens: i,
  cache_creation_input_tokens: cc,
  cache_read_input_tokens: cr,
  output_tokens: o,
});
const mu = (i: number, cc: number, cr: number, o: number, costUSD: number) => ({
  inputTokens: i,
  outputTokens: o,
  cacheReadInputTokens: cr,
  cacheCreationInputTokens: cc,
  costUSD,
  contextWindow: 200000,
});
const init = (sid: string, servers: Array<[string, string]>, tools: string[] = ["Bash"]) => ({
  type: "system",
  subtype: "init",
  cwd: "/tmp/x",
  session_id: sid,
  tools,
  mcp_servers: servers.map(([name, status]) => ({ name, status })),
  model: "claude-opus-5-5",
  permissionMode: "default",
  claude_code_version: "2.1.285",
});
const assistant = (sid: string, id: string, model: string, u: object, parent: string | null = null) => ({
  type: "assistant",
  message: { model, id, type: "message", role: "assistant", content: [{ type: "text", text: "x" }], stop_reason: "end_turn", usage: u },
  parent_tool_use_id: parent,
  session_id: sid,
});
const result = (sid: string, extra: object) => ({
  type: "result",
  subtype: "success",
  is_error: false,
  duration_ms: 1000,
  duration_api_ms: 900,
  num_turns: 1,
  result: "done",
  session_id: sid,
  permission_denials: [],
  ...extra,
});

/** An HTML page's text: tags (the renderer's break points among them) out, entities decoded. */
const pageText = (html: string) =>
  html
    .replace(/<[^>]*>/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

const NOCFG = ["--claude-dir", join(dir, "no-config")];
const report = (args: string[]) => runCli(["report", ...args, ...NOCFG]);

test("claude -p result errors and permission denials show in every table format, not only JSON (review F4)", async () => {
  const sid = SID(3);
  const file = put("during.json", [
    result(sid, {
      subtype: "error_during_execution",
      is_error: true,
      num_turns: 0,
      result: undefined,
      total_cost_usd: 0,
      usage: usage(0, 0, 0, 0),
      modelUsage: {},
      permission_denials: [
        { tool_name: "Write", tool_use_id: "toolu_1", tool_input: { file_path: "/etc/passwd", content: "x" } },
        { tool_name: "Bash", tool_use_id: "toolu_2", tool_input: { command: "curl x" } },
      ],
      errors: ['API Error: 401 {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}'],
    }),
  ]);
  for (const format of ["table", "markdown", "html", "csv"]) {
    const r = await report(["--stream-json", file, "--format", format]);
    assert.equal(r.code, 0, r.stderr);
    const text = format === "csv" ? r.stdout.replace(/""/g, '"') : format === "html" ? pageText(r.stdout) : r.stdout;
    assert.ok(text.includes("API Error: 401"), `${format}: the error text`);
    assert.ok(text.includes("invalid x-api-key"), `${format}: the whole error text`);
    for (const s of ["Write", "toolu_1", "file_path=/etc/passwd", "Bash", "toolu_2", "command=curl x"])
      assert.ok(text.includes(s), `${format}: ${s}`);
  }
  const csv = (await report(["--stream-json", file, "--format", "csv"])).stdout;
  assert.match(csv, /^run:errors,/m);
  assert.match(csv, /^run:permissionDenials,/m);
  const j = parseEnvelope(await report(["--stream-json", file, "--json"]), "report");
  assert.deepEqual(j.run.denials, [
    { tool: "Write", toolUseId: "toolu_1", input: "file_path=/etc/passwd content=x" },
    { tool: "Bash", toolUseId: "toolu_2", input: "command=curl x" },
  ]);
});

test("hostile error and denial text stays text in every format, and --redact reaches it (review F4)", async () => {
  const sid = SID(5);
  const ESC = "\u001b[31mred\u001b[0m\u001b]8;;http://evil.example\u0007link\u001b]8;;\u0007";
  const FORMULA = '=HYPERLINK("http://evil.example","click")';
  const SCRIPT = "<script>alert(1)</script>";
  const LINK = "[click](http://evil.example)";
  const HOME = "/home/alice/secret-project";
  const file = put("hostile.json", [
    result(sid, {
      subtype: "error_during_execution",
      is_error: true,
      result: undefined,
      total_cost_usd: 0,
      usage: usage(0, 0, 0, 0),
      modelUsage: {},
      errors: [FORMULA, `API Error: ${ESC} ${SCRIPT} ${LINK} in ${HOME}`],
      permission_denials: [
        { tool_name: FORMULA, tool_use_id: "toolu_01ABCDEFGHIJKLMNOP", tool_input: { command: `${SCRIPT} ${LINK} ${ESC}`, cwd: HOME } },
      ],
    }),
  ]);
  const run = (format: string, redact = false) => report(["--stream-json", file, "--format", format, ...(redact ? ["--redact"] : [])]);

  const table = await run("table");
  assert.equal(table.code, 0, table.stderr);
  assert.ok(!/[\u001b\u0007]/.test(table.stdout), "table: no raw ESC or BEL");
  assert.ok(table.stdout.includes("API Error:"), "table: the error shows");
  assert.ok(table.stdout.includes(FORMULA), "table: the formula shows as text");

  const md = await run("markdown");
  const html = toHtml(md.stdout);
  assertOwnMarkupOnly(html, "report markdown");
  const seen = visibleText(html);
  for (const s of [SCRIPT, LINK, "API Error:"]) assert.ok(seen.includes(s), `markdown shows ${s} as text`);

  const page = (await run("html")).stdout;
  assert.ok(!page.includes(SCRIPT), "html: no raw script element from evidence");
  assert.ok(!page.includes('href="http://evil.example'), "html: no link from evidence");
  assert.ok(pageText(page).includes(SCRIPT), "html: the script shows as text");
  assert.ok(pageText(page).includes(FORMULA), "html: the formula shows as text");

  const csv = (await run("csv")).stdout;
  assert.ok(!/[\u001b\u0007]/.test(csv), "csv: no raw ESC or BEL");
  for (const line of csv.split("\r\n").filter((l) => l.startsWith("run:errors,") || l.startsWith("run:permissionDenials,"))) {
    for (const cell of line.split(",")) assert.ok(!/^"?[=+@-]/.test(cell) || /^"?'/.test(cell), `csv: a formula cell is guarded: ${line}`);
  }
  assert.ok(csv.includes(`"'=HYPERLINK(`), "csv: the formula is quoted");

  for (const format of ["table", "markdown", "csv"]) {
    const r = await run(format, true);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes("/home/alice"), `${format} --redact: the home dir in an error and an input is redacted`);
    assert.ok(!r.stdout.includes("toolu_01ABCDEFGHIJKLMNOP"), `${format} --redact: the tool_use_id is shortened`);
    assert.ok(r.stdout.includes("~/secret-project"), `${format} --redact: the redacted path shows`);
  }
});

test("report joins the init statuses to the debug log's servers, as debug --stream-json does, and shows where they differ (review F5)", async () => {
  const sid = SID(1);
  const stream = put("init-vs-debug.stream.jsonl", [
    init(
      sid,
      [
        ["docs", "connected"],
        ["lab", "pending"],
        ["gh", "failed"],
      ],
      ["Bash", "mcp__docs__search"],
    ),
    assistant(sid, "msg_A", "claude-opus-5-5", usage(5, 1000, 0, 10)),
    result(sid, { total_cost_usd: 0.01, usage: usage(5, 1000, 0, 10), modelUsage: { "claude-opus-5-5": mu(5, 1000, 0, 10, 0.01) } }),
  ]);
  const debug = join(dir, "init-vs-debug.debug.txt");
  writeFileSync(
    debug,
    [
      '2026-10-02T09:41:07.000Z [DEBUG] MCP server "docs": Successfully connected (transport: http) in 386ms',
      '2026-10-02T09:41:07.100Z [DEBUG] MCP server "lab": Successfully connected (transport: stdio) in 8312ms',
      "2026-10-02T09:41:08.000Z [DEBUG] [API REQUEST] /v1/messages source=sdk",
      '2026-10-02T09:41:10.069Z [DEBUG] MCP server "docs": Connection error: [',
      '  { "name": "ZodError" }',
      "]",
      "",
    ].join("\n"),
  );
  const pick = (j: Record<string, any>) => j.debug.servers.map((s: any) => [s.name, s.status, s.initStatus]);
  const fromReport = parseEnvelope(await report(["--stream-json", stream, "--debug-file", debug, "--json"]), "report");
  const fromDebug = parseEnvelope(await runCli(["debug", debug, "--stream-json", stream, "--json"]), "debug");
  assert.deepEqual(pick(fromReport), [
    ["docs", "errored", "connected"],
    ["lab", "connected", "pending"],
  ]);
  assert.deepEqual(pick(fromReport), pick(fromDebug));
  assert.deepEqual(fromReport.debug.flags, fromDebug.debug.flags);

  const t = await report(["--stream-json", stream, "--debug-file", debug, "--format", "csv"]);
  const rows = t.stdout.split("\r\n").filter((l) => l.startsWith("run:mcpServers,"));
  assert.deepEqual(rows, [
    "run:mcpServers,docs,connected,errored,1",
    "run:mcpServers,lab,pending,connected,0",
    "run:mcpServers,gh,failed,,0",
  ]);
  const md = (await report(["--stream-json", stream, "--debug-file", debug, "--format", "markdown"])).stdout;
  assert.match(md, /debug log \(last state\)/);
  assert.match(md, /the debug log disagrees for docs \(init connected, debug log's last state errored\)$/m);
});

test("a model only a subagent used is labelled subagent and its cost is not background cost (review F6)", async () => {
  const sid = SID(6);
  const file = put("subagent.stream.jsonl", [
    init(sid, [], ["Task", "Bash"]),
    assistant(sid, "msg_M1", "claude-opus-5-5", usage(5, 20000, 0, 50)),
    assistant(sid, "msg_S1", "claude-haiku-4-5", usage(3, 4000, 0, 20), "toolu_T"),
    assistant(sid, "msg_M2", "claude-opus-5-5", usage(5, 100, 20000, 10)),
    result(sid, {
      total_cost_usd: 0.05,
      usage: usage(10, 20100, 20000, 60),
      modelUsage: { "claude-opus-5-5": mu(10, 20100, 20000, 60, 0.045), "claude-haiku-4-5": mu(3, 4000, 0, 20, 0.005) },
    }),
  ]);
  const j = parseEnvelope(await report(["--stream-json", file, "--json"]), "report");
  assert.deepEqual(
    j.run.models.map((m: any) => [m.model, m.role]),
    [
      ["claude-opus-5-5", "main"],
      ["claude-haiku-4-5", "subagent"],
    ],
  );
  assert.equal(j.run.backgroundCostUsd, 0);
  assert.equal(j.run.subagentCostUsd, 0.005);
  assert.deepEqual(j.run.subagentModels, ["claude-haiku-4-5"]);
  const md = (await report(["--stream-json", file, "--format", "markdown"])).stdout;
  assert.match(
    md,
    /\| model \| claude-opus-5-5 \| claude-haiku-4-5 \| usage \(main model only\) \|\n\|[-|]+\|\n\| role \| main \| subagent \|/,
  );
  assert.match(md, /\| subagent cost \| \$0\.0050 \|/);

  // The same result alone (plain json): no event says which a second model was.
  const alone = put("subagent-alone.json", [
    result(sid, {
      total_cost_usd: 0.05,
      usage: usage(10, 20100, 20000, 60),
      modelUsage: { "claude-opus-5-5": mu(10, 20100, 20000, 60, 0.045), "claude-haiku-4-5": mu(3, 4000, 0, 20, 0.005) },
    }),
  ]);
  const a = parseEnvelope(await report(["--stream-json", alone, "--json"]), "report");
  assert.deepEqual(
    a.run.models.map((m: any) => m.role),
    ["main", "other"],
  );
  assert.equal(a.run.backgroundCostUsd, null);
  assert.equal(a.run.costSplitUnknown, "roles-unknown");
});

test("old claude -p output without modelUsage: background cost unknown, not $0 (review F7)", async () => {
  const file = put("old-1.0.json", [
    {
      type: "result",
      subtype: "success",
      cost_usd: 0.0123,
      is_error: false,
      duration_ms: 4000,
      duration_api_ms: 3500,
      num_turns: 2,
      result: "done",
      session_id: SID(3),
    },
  ]);
  const j = parseEnvelope(await report(["--stream-json", file, "--json"]), "report");
  assert.equal(j.run.backgroundCostUsd, null);
  assert.equal(j.run.costSplitUnknown, "no-model-usage");
  assert.equal(j.run.result.totalCostUsd, 0.0123);
  const md = (await report(["--stream-json", file, "--format", "markdown"])).stdout;
  assert.match(md, /\| background cost \| unknown \(no modelUsage\) \|/);
  assert.doesNotMatch(md, /background cost \| \$0/);
});

test("multi-turn stream-json: a server pending in init 1 and connected in init 2 is not still connecting (review F9)", async () => {
  const sid = SID(2);
  const file = put("multiturn.stream.jsonl", [
    init(sid, [["lab", "pending"]]),
    assistant(sid, "msg_A", "claude-opus-5-5", usage(5, 1000, 0, 10)),
    result(sid, { total_cost_usd: 0.01, usage: usage(5, 1000, 0, 10), modelUsage: { "claude-opus-5-5": mu(5, 1000, 0, 10, 0.01) } }),
    init(sid, [["lab", "connected"]], ["Bash", "mcp__lab__ping"]),
    assistant(sid, "msg_B", "claude-opus-5-5", usage(5, 50, 1000, 12)),
    result(sid, {
      num_turns: 2,
      total_cost_usd: 0.025,
      usage: usage(5, 50, 1000, 12),
      modelUsage: { "claude-opus-5-5": mu(10, 1050, 1000, 22, 0.025) },
    }),
  ]);
  const j = parseEnvelope(await report(["--stream-json", file, "--json"]), "report");
  assert.deepEqual(j.run.pendingServers, []);
  assert.deepEqual(j.pendingServers, []);
  assert.deepEqual(j.run.serverStatuses, [{ name: "lab", status: "connected", firstStatus: "pending", initEvent: 2, inits: 2, tools: 1 }]);
  const t = (await report(["--stream-json", file])).stdout;
  assert.doesNotMatch(t, /still connecting/);
  assert.doesNotMatch(t, /never arrived/);
  assert.match(t, /lab: connected \(first: pending\)/);

  // Still pending in the last init event that names it: listed, under a heading that claims no instructions existed.
  const still = put("multiturn-still.stream.jsonl", [
    init(sid, [["lab", "pending"]]),
    result(sid, { total_cost_usd: 0.01, usage: usage(5, 1000, 0, 10), modelUsage: { "claude-opus-5-5": mu(5, 1000, 0, 10, 0.01) } }),
    init(sid, [["lab", "pending"]]),
    result(sid, { total_cost_usd: 0.02, usage: usage(5, 1000, 0, 10), modelUsage: { "claude-opus-5-5": mu(5, 1000, 0, 10, 0.02) } }),
  ]);
  const s = parseEnvelope(await report(["--stream-json", still, "--json"]), "report");
  assert.deepEqual(s.run.pendingServers, ["lab"]);
  assert.deepEqual(
    s.pendingServers.map((p: any) => [p.server, p.requestIndex]),
    [["lab", null]],
  );
  const st = (await report(["--stream-json", still])).stdout;
  assert.match(st, /Servers reported still connecting, with no instructions seen/);
  assert.doesNotMatch(st, /whose instructions never arrived/);
});
