import { test } from "node:test";
import assert from "node:assert/strict";
import { golden, parseEnvelope, runCli, sample } from "../helpers.js";

const LONG = ["7001de00", "--claude-dir", "samples/tools/long-description", "--rpc-log", "samples/tools/long-description/rpc-log.jsonl"];
const byName = (j: Record<string, any>) => new Map<string, any>(j.tools.map((t: any) => [t.name, t]));

test("tools: a 3,000-char description cut to 2,048 + marker, a deferred one loaded by ToolSearch, the system prompt", async () => {
  const j = parseEnvelope(await runCli(["tools", ...LONG, "--json"]), "tools");
  const t = byName(j);
  const manual = t.get("mcp__docs__fetch_manual");
  assert.deepEqual(
    [
      manual.server,
      manual.source,
      manual.descriptionChars,
      manual.descriptionTruncated,
      manual.sourceDescriptionChars,
      manual.truncationBasis,
    ],
    ["docs", "prompt-snapshot", 2061, true, 3000, "marker"],
  );
  assert.deepEqual([manual.deferred, manual.loaded, manual.requestIndex, manual.alwaysLoad], [false, true, 1, true]);
  const search = t.get("mcp__docs__search_docs");
  assert.deepEqual(
    [search.source, search.descriptionChars, search.descriptionTruncated, search.truncationBasis, search.schemaChars],
    ["tools-list", 2500, true, "source-over-cap", 106],
  );
  assert.deepEqual(
    [search.deferred, search.loaded, search.requestIndex, search.loadedRequestIndex, search.toolUses],
    [true, true, 1, 2, 1],
  );
  assert.deepEqual(search.sources, ["tools-list", "deferred-tools", "tool-use"]);
  const page = t.get("mcp__docs__get_page");
  assert.deepEqual([page.deferred, page.loaded, page.loadedRequestIndex, page.descriptionTruncated], [true, false, null, false]);
  assert.deepEqual(j.systemPrompt, {
    chars: 6662,
    requestIndex: 1,
    chain: "main",
    file: j.systemPrompt.file,
    line: 5,
    snapshots: 1,
    maxChars: 6662,
  });
  // Built-ins are never cut: no marker, no server length.
  assert.deepEqual([t.get("Bash").server, t.get("Bash").descriptionTruncated, t.get("Bash").deferred], [null, false, false]);
  assert.deepEqual(j.inputs.map((i: any) => i.kind).sort(), ["debug-log", "rpc-log", "transcript"]);
});

test("tools: without the message log the server's lengths are unknown (null), never 0", async () => {
  const j = parseEnvelope(await runCli(["tools", ...LONG.slice(0, 3), "--json"]), "tools");
  const search = byName(j).get("mcp__docs__search_docs");
  assert.deepEqual(
    [search.source, search.descriptionChars, search.descriptionTruncated, search.schemaChars],
    ["deferred-tools", null, null, null],
  );
  assert.equal(byName(j).get("mcp__docs__fetch_manual").descriptionTruncated, true);
});

test("tools --stream-json alone: the run's session is found, and its init names join the rows", async () => {
  const j = parseEnvelope(
    await runCli([
      "tools",
      "--claude-dir",
      "samples/tools/long-description",
      "--stream-json",
      "samples/tools/long-description/run.stream.jsonl",
      "--json",
    ]),
    "tools",
  );
  assert.ok(j.tools.every((t: any) => t.sources.includes("init")));
  assert.equal(j.tools.length, 27);
});

test("tools on no evidence: empty rows, systemPrompt null, exit 0", async () => {
  const j = parseEnvelope(await runCli(["tools", "-", "--json"], { stdin: "" }), "tools");
  assert.deepEqual([j.tools, j.systemPrompt], [[], null]);
});

test("tools: a bad flag is a usage error (exit 2)", async () => {
  const r = await runCli(["tools", "-", "--baseline", "x"], { stdin: "" });
  assert.equal(r.code, 2);
});

for (const [format, ext] of [
  ["table", "txt"],
  ["json", "json"],
  ["markdown", "md"],
] as const) {
  test(`golden: tools on the long-description sample as ${format}`, async () => {
    const r = await runCli(["tools", ...LONG, "--format", format]);
    assert.equal(r.code, 0, r.stderr);
    golden(`tools/long-description.${ext}`, r.stdout);
  });
}

test("report: a Tool definitions section with the same rows as tools", async () => {
  const rep = parseEnvelope(await runCli(["report", ...LONG, "--json"]), "report");
  const one = parseEnvelope(await runCli(["tools", ...LONG, "--json"]), "tools");
  assert.deepEqual(rep.tools, one.tools);
  assert.deepEqual(rep.systemPrompt, one.systemPrompt);
  const md = await runCli(["report", ...LONG, "--format", "markdown"]);
  assert.match(md.stdout, /\n### Tool definitions\n/);
  assert.match(md.stdout, /^\| mcp__docs__fetch_manual \| docs \| 2,061 \| yes \| 3,000 \| no \| 1 \|$/m);
});

test("tools: the demo's tools/list file sizes the big server's tools", async () => {
  const j = parseEnvelope(
    await runCli(["tools", "c0ffee00", "--claude-dir", sample("claude-home"), "--tools", "samples/demo/big-tools-list.json", "--json"]),
    "tools",
  );
  const big = byName(j).get("mcp__big__emit_text");
  assert.deepEqual([big.server, big.sourceDescriptionChars, big.toolUses, big.requestIndex], ["big", 20, 2, 1]);
});
