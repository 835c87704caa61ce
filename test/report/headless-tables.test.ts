import { test } from "node:test";
import assert from "node:assert/strict";
import { readClaudeRun } from "../read.js";
import { headlessSection } from "../../src/assemble/headless-section.js";
import { serverStatuses } from "../../src/analyses/headless-run.js";
import { headlessTables } from "../../src/report/headless-tables.js";
import { sample } from "../helpers.js";

const load = async (name: string) =>
  headlessSection(await readClaudeRun({ path: sample("logs", "claude-p", name), kind: "stream-json", bytes: 0, sha256: "" }));

test("run section: main model first, background Haiku separated, its cost apart, pending servers listed", async () => {
  const s = await load("late-server.stream.jsonl");
  assert.equal(s.mainModel, "claude-opus-5-5");
  assert.deepEqual(
    s.models.map((m) => [m.model, m.role, m.totalInputTokens, m.costUSD]),
    [
      ["claude-opus-5-5", "main", 12 + 20584 + 21202, 0.14509],
      ["claude-haiku-4-5-20251001", "background", 961, 0.001081],
    ],
  );
  assert.equal(s.backgroundCostUsd, 0.001081);
  assert.deepEqual(s.pendingServers, ["lab"]);
  assert.equal(s.init!.sessionId, "5e1f7a3c-2b9d-4e60-8c14-9a7d3f0b6e21");
  assert.equal(s.init!.line, 1);
  assert.equal(s.result!.line, 6);
  assert.equal(s.apiResponses, 2);
});

test("run tables: init, server statuses with a pending note, result, usage per model with the main-only usage as footer", async () => {
  const tables = headlessTables(await load("late-server.stream.jsonl"));
  assert.deepEqual(
    tables.map((t) => t.id),
    ["run:init", "run:mcpServers", "run:result", "run:modelUsage"],
  );
  const servers = tables[1]!;
  assert.deepEqual(servers.rows, [{ name: "lab", status: "pending", tools: 0 }]);
  assert.match(servers.notes![0]!, /^pending = not yet connected/);
  const usage = tables[3]!;
  assert.deepEqual(
    usage.rows.map((r) => r.role),
    ["main", "background"],
  );
  assert.deepEqual(usage.footer![0], {
    model: "usage (main model only)",
    role: "",
    inputTokens: 12,
    cacheCreationInputTokens: 21202,
    cacheReadInputTokens: 20584,
    outputTokens: 89,
    totalInputTokens: 41798,
  });
});

test("json output without init: result tables only", async () => {
  const s = await load("dual-era.json");
  assert.equal(s.init, null);
  assert.deepEqual(
    headlessTables(s).map((t) => t.id),
    ["run:result", "run:modelUsage"],
  );
  assert.deepEqual(s.pendingServers, []);
});

test("server statuses: the latest init event that names a server decides; one it leaves out keeps its earlier status", () => {
  const inits = [
    {
      tools: ["mcp__a__x"],
      mcpServers: [
        { name: "a", status: "pending" },
        { name: "b", status: "pending" },
      ],
    },
    { tools: ["mcp__a__x", "mcp__a__y"], mcpServers: [{ name: "a", status: "connected" }] },
    { tools: [], mcpServers: [{ name: "c", status: "failed" }] },
  ];
  assert.deepEqual(serverStatuses(inits), [
    { name: "a", status: "connected", firstStatus: "pending", initEvent: 2, inits: 3, tools: 2 },
    { name: "b", status: "pending", firstStatus: "pending", initEvent: 1, inits: 3, tools: 0 },
    { name: "c", status: "failed", firstStatus: "failed", initEvent: 3, inits: 3, tools: 0 },
  ]);
});
