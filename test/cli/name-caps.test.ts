import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_NAMES } from "../../src/records/counts.js";
import { headlessRunAnalysis } from "../../src/analyses/headless-run.js";
import { headlessSource } from "../../src/records/streamjson.js";
import { runOne } from "../../src/pipeline/runner.js";
import { parseEnvelope, runCli } from "../helpers.js";

// Name counts read from a debug log or a `claude -p` output are capped as every name count is (records/counts.ts:
// MAX_NAMES names, the rest counted in a `<field>Other` of {names, records}): a hostile file naming thousands of
// made-up servers, sources, tools, models or message types keeps bounded lists and tables, and the totals add up.

const dir = () => mkdtempSync(join(tmpdir(), "ccf-name-caps-"));
const SERVERS = MAX_NAMES + 1500;
const SOURCES = MAX_NAMES + 700;

function hostileDebugLog(): string {
  const lines: string[] = [];
  for (let i = 0; i < SERVERS; i++) {
    lines.push(`2026-10-02T09:41:07.120Z [DEBUG] MCP server "s${i}": Starting connection with timeout of 30000ms`);
    lines.push(`2026-10-02T09:41:07.506Z [DEBUG] MCP server "s${i}": Successfully connected (transport: stdio) in 386ms`);
  }
  for (let i = 0; i < SOURCES; i++) lines.push(`2026-10-02T09:41:08.000Z [DEBUG] [API REQUEST] /v1/messages source=src${i}`);
  // A name listed before the cap keeps counting after it.
  lines.push(`2026-10-02T09:41:09.000Z [DEBUG] [API REQUEST] /v1/messages source=src0`);
  const file = join(dir(), "debug.txt");
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

test("debug: thousands of made-up server names and request sources list MAX_NAMES each, the rest counted, totals adding up", async () => {
  const file = hostileDebugLog();
  const j = parseEnvelope(await runCli(["debug", file, "--json"]), "debug");
  const d = j.debug;
  assert.equal(d.servers.length, MAX_NAMES);
  assert.deepEqual(d.serversOther, { names: SERVERS - MAX_NAMES, records: 2 * (SERVERS - MAX_NAMES) });
  assert.ok(d.servers.every((s: { status: string }) => s.status === "connected"));
  const sources = d.apiRequestSources as Record<string, number>;
  assert.equal(Object.keys(sources).length, MAX_NAMES);
  assert.equal(sources.src0, 2);
  assert.deepEqual(d.apiRequestSourcesOther, { names: SOURCES - MAX_NAMES, records: SOURCES - MAX_NAMES });
  const listed = Object.values(sources).reduce((a, b) => a + b, 0);
  assert.equal(listed + d.apiRequestSourcesOther.records, d.apiRequests);
  assert.equal(d.apiRequests, SOURCES + 1);
  // The human formats: a bounded servers table that says the rest were counted, a summary of ten sources and the rest.
  const md = await runCli(["debug", file, "--format", "markdown"]);
  assert.equal(md.code, 0, md.stderr);
  // (markdown splits a wide table into parts, each row's first cell repeated: distinct names are the rows.)
  const rows = new Set(md.stdout.split("\n").flatMap((l) => /^\| (s\d+) \|/.exec(l)?.[1] ?? []));
  assert.equal(rows.size, MAX_NAMES);
  assert.match(
    md.stdout,
    new RegExp(
      `… ${(SERVERS - MAX_NAMES).toLocaleString("en-US")} more names \\(${(2 * (SERVERS - MAX_NAMES)).toLocaleString("en-US")} records\\): servers past the first 1,000 named are counted, not listed`,
    ),
  );
  const apiLine = md.stdout.split("\n").find((l) => l.includes("API requests"))!;
  // Ten named, the other 990 listed ones and the 700 past the cap as one item.
  assert.match(apiLine, /src0 2, .*… 1,690 more names \(1,690 records\) \(see debug\.apiRequestSources in --json\)/);
  assert.ok(apiLine.length < 600, `the summary line stays short: ${apiLine.length}`);
});

const TOOLS = MAX_NAMES + 900;
const MCP = MAX_NAMES + 600;
const MODELS = MAX_NAMES + 400;

function hostileStream(): string {
  const init = {
    type: "system",
    subtype: "init",
    session_id: "5eed1234-aaaa-4bbb-8ccc-0123456789ab",
    model: "m0",
    tools: Array.from({ length: TOOLS }, (_, i) => `mcp__x${i}__t`),
    mcp_servers: Array.from({ length: MCP }, (_, i) => ({ name: `x${i}`, status: "connected" })),
  };
  const modelUsage = Object.fromEntries(
    Array.from({ length: MODELS }, (_, i) => [
      `m${i}`,
      { inputTokens: 1, outputTokens: 2, cacheReadInputTokens: 3, cacheCreationInputTokens: 4, costUSD: 0.25 },
    ]),
  );
  const result = {
    type: "result",
    subtype: "success",
    is_error: false,
    session_id: init.session_id,
    total_cost_usd: MODELS * 0.25,
    usage: { input_tokens: 1, output_tokens: 2, cache_read_input_tokens: 3, cache_creation_input_tokens: 4 },
    modelUsage,
  };
  // Message types made up by the thousand, and a known one after them.
  const junk = Array.from({ length: MAX_NAMES + 300 }, (_, i) => JSON.stringify({ type: `junk${i}` }));
  const file = join(dir(), "run.stream.jsonl");
  writeFileSync(file, `${[...junk, JSON.stringify(init), JSON.stringify(result)].join("\n")}\n`);
  return file;
}

test("claude -p: thousands of tools, servers, models and message types list MAX_NAMES each, the rest counted, totals adding up", async () => {
  const file = hostileStream();
  const { results } = await runOne({ path: file, kind: "stream-json", bytes: 0, sha256: "" }, headlessSource, {
    run: headlessRunAnalysis(file),
  });
  const run = results.run;
  assert.ok(Object.keys(run.types).length <= MAX_NAMES + 1);
  assert.ok(Object.hasOwn(run.types, "result") || Object.hasOwn(run.types, "system/init"), "a known type is still listed");
  const listedTypes = Object.values(run.types).reduce((a, b) => a + b, 0);
  assert.equal(listedTypes + (run.typesOther?.records ?? 0), MAX_NAMES + 302);
  assert.equal(run.init!.tools.length, MAX_NAMES);
  assert.deepEqual(run.init!.toolsOther, { names: TOOLS - MAX_NAMES, records: TOOLS - MAX_NAMES });
  assert.equal(run.init!.mcpServers.length, MAX_NAMES);
  assert.deepEqual(run.init!.mcpServersOther, { names: MCP - MAX_NAMES, records: MCP - MAX_NAMES });
  const r = run.result!;
  assert.equal(Object.keys(r.modelUsage).length, MAX_NAMES);
  const o = r.modelUsageOther!;
  assert.equal(o.names, MODELS - MAX_NAMES);
  assert.equal(o.inputTokens, MODELS - MAX_NAMES);
  assert.equal(o.costUSD, (MODELS - MAX_NAMES) * 0.25);

  // The document: listed rows plus the counted rest give the run's totals.
  const j = parseEnvelope(await runCli(["report", "--stream-json", file, "--json"]), "report");
  const models = j.run.models as Array<{ costUSD: number; role: string }>;
  assert.equal(models.length, MAX_NAMES);
  assert.equal(j.run.result.modelUsageOther.names, MODELS - MAX_NAMES);
  const main = models.filter((m) => m.role === "main").reduce((a, m) => a + m.costUSD, 0);
  const others = models.filter((m) => m.role !== "main").reduce((a, m) => a + m.costUSD, 0);
  assert.equal(
    main + others + j.run.result.modelUsageOther.costUSD,
    j.run.result.totalCostUsd,
    "listed models plus the rest are the run's cost",
  );
  // Models past the cap have no names to match subagent events against (and this output has no assistant events).
  assert.equal(j.run.backgroundCostUsd, null);
  assert.equal(j.run.costSplitUnknown, "roles-unknown");
  const md = await runCli(["report", "--stream-json", file, "--format", "markdown"]);
  assert.equal(md.code, 0, md.stderr);
  assert.match(md.stdout, new RegExp(`\\| tools \\| ${TOOLS}: .*… 900 more names \\(900 records\\) \\|`));
  // `tools`, built from the init's list, says what it left out.
  const tools = await runCli(["tools", "--stream-json", file, "--format", "markdown"]);
  assert.equal(tools.code, 0, tools.stderr);
  assert.match(tools.stderr, /init event: … 900 more names \(900 records\) of tools past the first 1,000, counted, not listed/);
  assert.match(md.stdout, /… 600 more names \(600 records\): servers past the first 1,000 named are counted, not listed/);
  assert.match(md.stdout, /\| … 400 more names \(400 records\) \| other \| 400 \|/);
  // Each table that lists the init's servers (MCP servers at init, the tools per server) lists the first ones only.
  assert.equal(new Set(md.stdout.split("\n").flatMap((l) => /^\| (x\d+) \|/.exec(l)?.[1] ?? [])).size, MAX_NAMES);
});
