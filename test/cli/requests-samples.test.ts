import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { golden, parseEnvelope, runCli, sample } from "../helpers.js";

const BASIC = sample("basic", "11111111-2222-4333-8444-555555555555.jsonl");
const DAMAGED = sample("damaged", "33333333-4444-4555-8666-777777777777.jsonl");
const SUBAGENTS = sample("subagents", "claude");
const expected = (p: string) => JSON.parse(readFileSync(sample(p, "EXPECTED.json"), "utf8"));

const FIELDS = [
  "index",
  "line",
  "messageId",
  "requestId",
  "model",
  "timestamp",
  "fragments",
  "inputTokens",
  "cacheCreationInputTokens",
  "cacheCreation5m",
  "cacheCreation1h",
  "cacheReadInputTokens",
  "totalInputTokens",
  "deltaTokens",
  "outputTokens",
  "outputPlaceholder",
  "stopReason",
] as const;

function checkRequests(got: any[], want: any[], label: string) {
  assert.equal(got.length, want.length, `${label}: request count`);
  want.forEach((w, i) => {
    const g = got[i];
    for (const f of FIELDS) assert.deepEqual(g[f], w[f], `${label} request ${w.index}: ${f}`);
    for (const f of ["toolResults", "toolResultChars", "userTextChars", "attachments"])
      assert.equal(g.added[f], w.added[f], `${label} request ${w.index}: added.${f}`);
    assert.deepEqual(
      [...g.added.attachmentKinds].sort(),
      [...w.added.attachmentKinds].sort(),
      `${label} request ${w.index}: attachment kinds`,
    );
  });
}

test("basic: split responses deduplicated, deltas and added content as the generator computed them", async () => {
  const j = parseEnvelope(await runCli(["requests", BASIC, "--json"]), "requests");
  const want = expected("basic");
  checkRequests(j.requests, want.requests, "basic");
  const t = j.totals[0];
  assert.equal(t.chain, "main");
  assert.equal(t.totalInputTokens, 73448);
  assert.equal(t.outputTokens, 212);
  assert.equal(t.synthetic, 1, "No response requested.");
  assert.equal(t.apiErrors, 1, "isApiErrorMessage (model <synthetic> too)");
  assert.equal(j.inputs.length, 1);
  assert.equal(j.inputs[0].kind, "transcript");
  assert.equal(j.inputs[0].bytes, readFileSync(BASIC).length);
  assert.match(j.inputs[0].sha256, /^[0-9a-f]{64}$/);
});

test("subagents (2.1.x layout): looked up by id prefix, each subagent its own chain, progress copies never main requests", async () => {
  const j = parseEnvelope(await runCli(["requests", "2a2a2a2a", "--claude-dir", SUBAGENTS, "--json"]), "requests");
  const want = expected("subagents");
  const chains = want.chains.filter((c: any) => c.session === "2a2a2a2a-0000-4000-8000-00000000000a");
  assert.deepEqual([...new Set(j.requests.map((r: any) => r.chain))].sort(), chains.map((c: any) => c.chain).sort());
  for (const c of chains)
    checkRequests(
      j.requests.filter((r: any) => r.chain === c.chain),
      c.requests,
      `chain ${c.chain}`,
    );
  assert.deepEqual(
    j.inputs.map((i: any) => i.kind),
    ["transcript", "subagent-transcript", "subagent-transcript"],
  );
});

test("subagents (2.0.x layout): agent files beside the session join by sessionId; the decoy does not", async () => {
  const j = parseEnvelope(
    await runCli(["requests", "2b2b2b2b-0000-4000-8000-00000000000b", "--claude-dir", SUBAGENTS, "--json"]),
    "requests",
  );
  assert.deepEqual(
    j.totals.map((t: any) => [t.chain, t.requests]),
    [
      ["main", 2],
      ["1a2b3c4d", 2],
    ],
  );
  assert.ok(!j.inputs.some((i: any) => i.path.includes("9f9f9f9f")));
  assert.ok(
    j.requests.every((r: any) => r.outputPlaceholder),
    "2.0.64 never writes a final stop_reason",
  );
});

test("--no-subagents reads the main chain only", async () => {
  const j = parseEnvelope(await runCli(["requests", "2a2a2a2a", "--claude-dir", SUBAGENTS, "--no-subagents", "--json"]), "requests");
  assert.deepEqual(
    j.totals.map((t: any) => t.chain),
    ["main"],
  );
  assert.equal(j.inputs.length, 1);
});

test("damaged: every malformed line is reported with its line number; the valid requests still come out", async () => {
  const r = await runCli(["requests", DAMAGED, "--json"]);
  const j = parseEnvelope(r, "requests");
  const want = expected("damaged");
  assert.deepEqual(
    j.health.malformed.map((m: any) => m.line),
    want.malformed.map((m: any) => m.line),
  );
  assert.equal(j.health.lines, want.physicalLines);
  assert.equal(j.health.records, want.records);
  assert.equal(j.health.blankLines, want.blank.length);
  assert.deepEqual(j.health.unknownTypes, { "hologram-frame": 1, "(no type)": 1 });
  const reasons = Object.fromEntries(j.health.malformed.map((m: any) => [m.line, m.reason]));
  assert.match(reasons[8], /^NUL bytes only/);
  // Line 9: a whole record, then the 256 NUL bytes a crash left: read, and the NULs are damage.
  assert.equal(reasons[9], undefined);
  assert.deepEqual(
    j.health.damaged.map((d: any) => [d.line, d.reason, d.bytes]),
    [[9, "256 trailing NUL bytes from byte 171 (crash remnant), skipped", 256]],
  );
  assert.match(reasons[11], /^two JSON values glued/);
  assert.match(reasons[13], /got an array/);
  assert.match(reasons[15], /got a number/);
  assert.match(reasons[16], /got a string/);
  assert.match(reasons[23], /^half-written last line/);
  checkRequests(j.requests, want.requests, "damaged");
  assert.match(r.stderr, /8 malformed lines/);
  assert.match(r.stderr, /33333333-4444-4555-8666-777777777777\.jsonl:23: half-written/);
});

test("--strict turns malformed lines into exit 1 with file:line on stderr, after the same document on stdout", async () => {
  const r = await runCli(["requests", DAMAGED, "--strict"]);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, (await runCli(["requests", DAMAGED])).stdout);
  assert.notEqual(r.stdout, "");
  // The line read despite its trailing NULs fails --strict as a NUL-prefixed one does: damage, not malformed.
  assert.match(r.stderr, /--strict: 8 malformed line\(s\) and 1 damaged-line entry:/);
  assert.match(r.stderr, /jsonl:4: /);
  assert.match(r.stderr, /jsonl:9: 256 trailing NUL bytes from byte 171 \(crash remnant\), skipped \(read all the same\)/);
  assert.equal((await runCli(["requests", BASIC, "--strict", "--json"])).code, 0);
});

test("stdin: piped JSONL is one chain; '-' and no target read the same", async () => {
  const data = readFileSync(BASIC);
  const a = parseEnvelope(await runCli(["requests", "-", "--json"], { stdin: data }), "requests");
  const b = parseEnvelope(await runCli(["requests", "--json"], { stdin: data }), "requests");
  const f = parseEnvelope(await runCli(["requests", BASIC, "--json"]), "requests");
  assert.equal(a.inputs[0].path, "-");
  assert.deepEqual(
    a.requests.map((r: any) => r.totalInputTokens),
    f.requests.map((r: any) => r.totalInputTokens),
  );
  assert.deepEqual(a.totals, b.totals);
  assert.equal(a.inputs[0].sha256, f.inputs[0].sha256);
});

test("empty input is an empty report and exit 0", async () => {
  const r = await runCli(["requests", "-", "--json"], { stdin: "" });
  const j = parseEnvelope(r, "requests");
  assert.deepEqual(j.requests, []);
  assert.equal(j.health.lines, 0);
  const t = await runCli(["requests", "-"], { stdin: "" });
  assert.equal(t.code, 0);
});

for (const format of ["table", "markdown", "csv", "json"] as const) {
  test(`golden: requests on the basic sample as ${format}`, async () => {
    const r = await runCli(["requests", "samples/basic/11111111-2222-4333-8444-555555555555.jsonl", "--format", format]);
    assert.equal(r.code, 0, r.stderr);
    golden(`basic/requests.${format === "markdown" ? "md" : format === "table" ? "txt" : format}`, r.stdout);
  });
}
