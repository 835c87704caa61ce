import { test } from "node:test";
import assert from "node:assert/strict";
import { Fanout } from "../../src/analyses/analysis.js";
import { requestsAnalysis } from "../../src/analyses/requests.js";
import { joinTools, type ToolsContext } from "../../src/analyses/tools-join.js";
import { serverToolCounts, toolsAnalysis, TRUNCATION_MARKER } from "../../src/analyses/tools.js";
import type { ToolMeta } from "../../src/records/tools-list.js";
import { toRecord } from "../../src/records/transcript.js";
import { assistant, attachment, toolResult, userText } from "../builders.js";

function run(recs: Array<Record<string, unknown>>, ctx: Partial<ToolsContext> = {}) {
  const fan = new Fanout({ requests: requestsAnalysis, tools: toolsAnalysis });
  recs.forEach((r, i) => fan.step(toRecord(r, { file: "t.jsonl", line: i + 1 }, "main")));
  const res = fan.finish();
  return joinTools(res.tools, res.requests.requests, { listed: [], servers: [], init: [], ...ctx });
}

const snapshot = (tools: unknown[], systemPrompt: unknown = "You are a stand-in.") => ({ type: "prompt_snapshot", systemPrompt, tools });
const listed = (name: string, descriptionChars: number | null, extra: Partial<ToolMeta> = {}): ToolMeta => ({
  name,
  maxResultSizeChars: null,
  alwaysLoad: null,
  descriptionChars,
  schemaChars: 20,
  ...extra,
});
const byName = (rows: ReturnType<typeof run>["tools"]) => new Map(rows.map((r) => [r.name, r]));

test("a snapshot's tools are loaded in request 1, a deferred list's are deferred, a call names the request that made it", () => {
  const { tools, systemPrompt } = run([
    userText("hi"),
    attachment({ type: "deferred_tools_delta", addedNames: ["WebFetch", "mcp__lab__lookup_part"], addedLines: [], removedNames: [] }),
    snapshot([{ name: "Bash", description: "Run a command.", input_schema: { type: "object" } }]),
    assistant({ id: "m1", blocks: [{ type: "tool_use", id: "toolu_1", name: "mcp__lab__lookup_part", input: {} }] }),
    toolResult("toolu_1", "ok"),
    assistant({ id: "m2" }),
  ]);
  const t = byName(tools);
  const bash = t.get("Bash")!;
  assert.deepEqual(
    [
      bash.source,
      bash.server,
      bash.descriptionChars,
      bash.schemaChars,
      bash.deferred,
      bash.loaded,
      bash.requestIndex,
      bash.descriptionTruncated,
    ],
    ["prompt-snapshot", null, 14, 17, false, true, 1, false],
  );
  const lp = t.get("mcp__lab__lookup_part")!;
  assert.deepEqual(
    [lp.source, lp.server, lp.toolName, lp.deferred, lp.loaded, lp.requestIndex, lp.toolUses, lp.descriptionChars],
    ["deferred-tools", "lab", "lookup_part", true, true, 1, 1, null],
  );
  assert.deepEqual(lp.sources, ["deferred-tools", "tool-use"]);
  const wf = t.get("WebFetch")!;
  assert.deepEqual([wf.deferred, wf.loaded, wf.descriptionTruncated], [true, false, null]);
  assert.deepEqual([systemPrompt?.chars, systemPrompt?.requestIndex, systemPrompt?.snapshots], [19, 1, 1]);
});

test("a call in a later request's fragment names that request, not the next one", () => {
  const { tools } = run([
    userText("hi"),
    assistant({ id: "m1" }),
    toolResult("x", "ok"),
    assistant({ id: "m2", blocks: [{ type: "text", text: "a" }] }),
    assistant({ id: "m2", blocks: [{ type: "tool_use", id: "toolu_2", name: "Read", input: {} }] }),
  ]);
  assert.equal(byName(tools).get("Read")!.requestIndex, 2);
});

test("truncation: the marker, a delivered text shorter than the server's, and a tools/list alone over 2,048", () => {
  const cut = "x".repeat(2048) + TRUNCATION_MARKER;
  const { tools } = run(
    [
      userText("hi"),
      snapshot([
        { name: "mcp__big__long", description: cut, input_schema: {} },
        { name: "mcp__big__short", description: "y".repeat(100), input_schema: {} },
        { name: "mcp__big__whole", description: "z".repeat(10), input_schema: {} },
      ]),
      assistant({ id: "m1" }),
    ],
    { listed: [listed("short", 3000), listed("whole", 10), listed("other", 5000, { server: "big" }), listed("tiny", 5)] },
  );
  const t = byName(tools);
  assert.deepEqual([t.get("mcp__big__long")!.descriptionChars, t.get("mcp__big__long")!.truncationBasis], [2061, "marker"]);
  assert.deepEqual(
    [
      t.get("mcp__big__short")!.descriptionTruncated,
      t.get("mcp__big__short")!.sourceDescriptionChars,
      t.get("mcp__big__short")!.truncationBasis,
    ],
    [true, 3000, "shorter-than-source"],
  );
  assert.deepEqual([t.get("mcp__big__whole")!.descriptionTruncated, t.get("mcp__big__whole")!.source], [false, "prompt-snapshot"]);
  const other = t.get("mcp__big__other")!;
  assert.deepEqual(
    [
      other.source,
      other.server,
      other.descriptionChars,
      other.descriptionTruncated,
      other.truncationBasis,
      other.requestIndex,
      other.deferred,
    ],
    ["tools-list", "big", 5000, true, "source-over-cap", null, null],
  );
  // No transcript name ends in __tiny and the log names no server: kept under its own name, server unknown.
  assert.deepEqual([t.get("tiny")!.server, t.get("tiny")!.descriptionTruncated], [null, false]);
});

test("a removal, a ToolSearch load and an init-only name; per-server counts", () => {
  const { tools } = run(
    [
      userText("hi"),
      attachment({ type: "deferred_tools_delta", addedNames: ["mcp__a__one", "mcp__a__two"], addedLines: [], removedNames: [] }),
      assistant({ id: "m1", blocks: [{ type: "tool_use", id: "toolu_s", name: "ToolSearch", input: { query: "one" } }] }),
      toolResult("toolu_s", [{ type: "tool_reference", tool_name: "mcp__a__one" }]),
      assistant({ id: "m2" }),
      attachment({ type: "deferred_tools_delta", addedNames: [], addedLines: [], removedNames: ["mcp__a__two"] }),
      assistant({ id: "m3" }),
    ],
    { init: ["Glob", "mcp__a__one"] },
  );
  const t = byName(tools);
  assert.deepEqual([t.get("mcp__a__one")!.loaded, t.get("mcp__a__one")!.sources], [true, ["deferred-tools", "init"]]);
  assert.deepEqual([t.get("mcp__a__two")!.removed, t.get("mcp__a__two")!.loaded], [true, false]);
  assert.deepEqual([t.get("Glob")!.source, t.get("Glob")!.requestIndex, t.get("Glob")!.deferred], ["init", null, null]);
  assert.deepEqual(serverToolCounts(tools), [
    { server: "a", tools: 2, listed: 0, loaded: 1, deferred: 2, called: 0, truncatedDescriptions: 0 },
    { server: null, tools: 2, listed: 0, loaded: 1, deferred: 0, called: 1, truncatedDescriptions: 0 },
  ]);
});

test("no tool evidence: no rows and no system prompt, not zeros", () => {
  const { tools, systemPrompt } = run([userText("hi"), assistant({ id: "m1" })]);
  assert.deepEqual([tools, systemPrompt], [[], null]);
});

test("a tool a subagent alone had names its chain; with no requests given every index is null", () => {
  const fan = new Fanout({ requests: requestsAnalysis, tools: toolsAnalysis });
  const recs: Array<[Record<string, unknown>, string]> = [
    [userText("hi"), "main"],
    [assistant({ id: "m1" }), "main"],
    [attachment({ type: "deferred_tools_delta", addedNames: ["WebFetch"], addedLines: [], removedNames: [] }), "a0f1e2d3"],
    [assistant({ id: "s1" }), "a0f1e2d3"],
  ];
  recs.forEach(([r, chain], i) => fan.step(toRecord(r, { file: "t.jsonl", line: i + 1 }, chain)));
  const res = fan.finish();
  const ctx = { listed: [], servers: [], init: [] };
  const [wf] = joinTools(res.tools, res.requests.requests, ctx).tools;
  assert.deepEqual([wf!.name, wf!.chain, wf!.requestIndex], ["WebFetch", "a0f1e2d3", 1]);
  const [none] = joinTools(res.tools, [], ctx).tools;
  assert.deepEqual([none!.chain, none!.requestIndex, none!.deferred], [null, null, true]);
});

test("tools/list tools matching several transcript names: the first ten named, the rest counted, one lookup each (not a scan of every name)", () => {
  // Two servers share every tool name: each listed tool (no server known) matches two transcript names.
  const n = 3000;
  const names = Array.from({ length: n }, (_, i) => `t${i}`);
  const recs = [
    userText("hi"),
    attachment({
      type: "deferred_tools_delta",
      addedNames: names.flatMap((t) => [`mcp__a__${t}`, `mcp__b__${t}`]),
      addedLines: [],
      removedNames: [],
    }),
    assistant({ id: "m1" }),
  ];
  const started = process.hrtime.bigint();
  const { warnings } = run(recs, { listed: names.map((t) => listed(t, 10)) });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const ambiguous = warnings.filter((w) => w.startsWith("tools/list tool "));
  assert.equal(ambiguous.length, 10, warnings.slice(0, 12).join("\n"));
  assert.equal(ambiguous[0], "tools/list tool t0 matches mcp__a__t0, mcp__b__t0: kept apart, server unknown");
  assert.ok(
    warnings.includes(`… and ${n - 10} more tools/list tool(s) matching several transcript names: kept apart, server unknown`),
    warnings.slice(-3).join("\n"),
  );
  // 3,000 listed tools against 6,000 names was 18 million splits; a lookup each is milliseconds. Generous bound.
  assert.ok(ms < 5000, `took ${ms} ms`);
});
