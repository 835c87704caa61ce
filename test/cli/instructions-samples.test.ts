import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { golden, parseEnvelope, ROOT, runCli, sample } from "../helpers.js";

/** A scenario of samples/instructions: its config dir, session id, transcript (relative path) and raw records. */
function scenario(name: string) {
  const dir = sample("instructions", name);
  const projects = join(dir, "projects");
  const key = readdirSync(projects)[0]!;
  const file = readdirSync(join(projects, key)).find((f) => f.endsWith(".jsonl"))!;
  const id = file.slice(0, -".jsonl".length);
  const path = relative(ROOT, join(projects, key, file));
  const records = readFileSync(join(ROOT, path), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  return {
    dir,
    id,
    path,
    records,
    debug: relative(ROOT, join(dir, "debug", `${id}.txt`)),
    stream: relative(ROOT, join(dir, "run.stream.jsonl")),
  };
}

/** The delivered blocks, read straight from the raw JSONL: the test's own computation, not the tool's. */
function rawBlocks(records: any[]): Array<{ line: number; server: string; text: string }> {
  const out: Array<{ line: number; server: string; text: string }> = [];
  records.forEach((r, i) => {
    if (r.type !== "attachment" || r.attachment.type !== "mcp_instructions_delta") return;
    r.attachment.addedBlocks.forEach((b: string, k: number) => {
      const server = r.attachment.addedNames[k];
      out.push({ line: i + 1, server, text: b.slice(`## ${server}\n`.length) });
    });
  });
  return out;
}

const MARK = "… [truncated]";
const last = (t: string) => Math.max(...[...t.matchAll(/\[at (\d+)\]/g)].map((m) => Number(m[1])));
const sizes = (t: string) => ({ chars: t.length, codePoints: [...t].length, utf8Bytes: Buffer.byteLength(t, "utf8") });
const labText = async () =>
  (await import(pathToFileURL(join(ROOT, "samples", "gen", "lab-text.mjs")).href)) as {
    labInstructions(b: string, e: string, n: number, lang?: string): string;
  };
const json = async (args: string[]) => parseEnvelope(await runCli(["instructions", ...args, "--json"]), "instructions");

test("1,000-char English: delta after deferred tools and agent listing, 1,167 rendered chars, nowhere else, answer matches", async () => {
  const s = scenario("en-1000");
  const j = await json([s.id, "--claude-dir", s.dir, "--stream-json", s.stream]);
  const [raw] = rawBlocks(s.records);
  const [r] = j.instructions;
  assert.equal(j.instructions.length, 1);
  assert.deepEqual(
    { server: r.server, carrier: r.carrier, line: r.line, requestIndex: r.requestIndex },
    { server: "lab", carrier: "mcp_instructions_delta", line: raw!.line, requestIndex: 1 },
  );
  assert.deepEqual({ chars: r.chars, codePoints: r.codePoints, utf8Bytes: r.utf8Bytes }, sizes(raw!.text));
  assert.equal(r.chars, 1000);
  assert.equal(r.renderedChars, 1167, "the write-up's 1,167: 1,000 chars + 167 of heading and wrapper");
  assert.equal(r.renderedSource, "stored");
  assert.deepEqual([r.truncated, r.keptChars, r.sourceChars, r.removed], [false, null, null, false]);
  assert.deepEqual(r.probe, { begin: "WAXWING-4465", end: "KESTREL-1907", lastMarker: last(raw!.text), markers: 3 });
  assert.equal(r.probe.lastMarker, 763);
  assert.deepEqual(r.position.before, ["prompt", "deferred_tools_delta", "agent_listing_delta"]);
  assert.deepEqual(r.position.after, ["skill_listing"]);
  assert.deepEqual(r.notAppearingIn, ["system-prompt", "tool-definitions", "deferred-tools"]);
  assert.equal(r.initStatus, "connected");
  assert.equal(r.debugLog.status, "match");
  assert.equal(j.answer.matches, true);
  assert.deepEqual(
    j.inputs.map((i: any) => i.kind),
    ["transcript", "debug-log", "stream-json"],
  );
});

test("20,000-char English: 2,048 kept + 13-char marker = 2,061, last marker 2009, source 20,000 from the session's debug log", async () => {
  const s = scenario("en-20000-truncated");
  const j = await json([s.id, "--claude-dir", s.dir]);
  const [raw] = rawBlocks(s.records);
  const [r] = j.instructions;
  assert.ok(raw!.text.endsWith(MARK));
  assert.deepEqual({ chars: r.chars, codePoints: r.codePoints, utf8Bytes: r.utf8Bytes }, sizes(raw!.text));
  assert.deepEqual([r.chars, r.truncated, r.keptChars, r.sourceChars], [2061, true, 2048, 20000]);
  assert.equal(r.probe.lastMarker, last(raw!.text));
  assert.deepEqual([r.probe.begin, r.probe.end, r.probe.lastMarker], ["TANAGER-5810", null, 2009]);
  assert.equal(r.renderedChars, 2061 + 167);
  assert.deepEqual(r.debugLog, {
    file: join(s.dir, "debug", `${s.id}.txt`),
    line: 5,
    from: 20000,
    to: 2048,
    status: "match",
    problem: null,
  });
  assert.deepEqual(j.answer.got, { begin: "TANAGER-5810", end: "NONE", last: "2009" });
  assert.equal(j.answer.matches, true);
  // The generator's own full text: the marker past the cut is what a model could not have seen.
  const { labInstructions } = await labText();
  const full = labInstructions("TANAGER-5810", "BITTERN-7724", 20000);
  assert.equal(full.slice(0, 2048) + MARK, raw!.text);
  assert.equal(last(full), 19808);
});

test("3,000-char Japanese: 7,956 source bytes, 2,048 kept chars = 5,452 bytes, last marker 2026", async () => {
  const s = scenario("ja-3000-truncated");
  const j = await json([s.path, "--debug-file", s.debug]);
  const [raw] = rawBlocks(s.records);
  const [r] = j.instructions;
  const kept = raw!.text.slice(0, -MARK.length);
  assert.deepEqual({ chars: r.chars, codePoints: r.codePoints, utf8Bytes: r.utf8Bytes }, sizes(raw!.text));
  assert.notEqual(r.utf8Bytes, r.chars, "chars and bytes differ");
  assert.deepEqual([r.keptChars, r.keptUtf8Bytes], [kept.length, Buffer.byteLength(kept)]);
  assert.deepEqual([r.keptChars, r.keptUtf8Bytes, r.sourceChars, r.probe.lastMarker], [2048, 5452, 3000, 2026]);
  const { labInstructions } = await labText();
  const source = labInstructions("MALLARD-2718", "GADWALL-3141", 3000, "ja");
  assert.deepEqual([source.length, Buffer.byteLength(source)], [3000, 7956]);
  assert.equal(source.slice(0, 2048), kept);
});

test("raised limit: all 20,000 chars, no truncation line, END and last marker 19808 delivered", async () => {
  const s = scenario("en-20000-raised");
  const j = await json([s.path, "--debug-file", s.debug]);
  const [raw] = rawBlocks(s.records);
  const [r] = j.instructions;
  assert.deepEqual([r.chars, r.truncated, r.keptChars, r.sourceChars], [20000, false, null, null]);
  const markers = [...raw!.text.matchAll(/\[at \d+\]/g)].length;
  assert.deepEqual(r.probe, { begin: "SWALLOW-3356", end: "VULTURE-9043", lastMarker: 19808, markers });
  assert.equal(r.debugLog.status, "match");
});

test("baseline deltas: +377 / +721 / +1,727 / +6,578, and the write-up's chars per token with 51 wrapper tokens", async () => {
  const base = scenario("baseline").path;
  const cases: Array<[string, number, number, number]> = [
    ["en-1000", 377, 1000, 3.07],
    ["en-20000-truncated", 721, 2061, 3.08],
    ["ja-3000-truncated", 1727, 2061, 1.23],
    ["en-20000-raised", 6578, 20000, 3.06],
  ];
  for (const [name, delta, chars, cpt] of cases) {
    const j = await json([scenario(name).path, "--baseline", base, "--wrapper-tokens", "51"]);
    assert.equal(j.baseline.deltaTokens, delta, name);
    assert.equal(j.baseline.chars, chars, name);
    assert.equal(j.baseline.tokensPerChar, delta / chars, name);
    assert.equal(Math.round(j.baseline.textCharsPerToken * 100) / 100, cpt, name);
    assert.equal(j.instructions[0].baselineDeltaTokens, delta);
    assert.equal(j.baseline.baselineHasInstructions, false);
  }
});

test("no instructions at all: empty list, the answer check says nothing delivered (never 'matches'), exit 0", async () => {
  const s = scenario("baseline");
  const j = await json([s.id, "--claude-dir", s.dir]);
  assert.deepEqual(j.instructions, []);
  assert.deepEqual(j.answer.expected, { begin: "NONE", end: "NONE", last: "NONE" });
  assert.equal(j.answer.check, "nothing-delivered");
  assert.equal(j.answer.matches, null);
  assert.deepEqual(j.pendingServers, []);
  const table = await runCli(["instructions", s.id, "--claude-dir", s.dir, "--no-color"]);
  assert.match(table.stdout, /answer check: nothing delivered: no instructions to check the answer against/);
  assert.doesNotMatch(table.stdout, /matches what was delivered/);
  // The empty table says so once, in every human format (it was both the table's sentence and a note).
  for (const format of ["table", "markdown", "html"]) {
    const out = (await runCli(["instructions", s.id, "--claude-dir", s.dir, "--no-color", "--format", format])).stdout;
    assert.equal(out.match(/no MCP server instructions in these records/gi)?.length, 1, format);
  }
});

test("late server: pending at init, request 1 went out without it, the delta rides on request 2", async () => {
  const s = scenario("late-server");
  const j = await json([s.id, "--claude-dir", s.dir, "--stream-json", s.stream]);
  const [r] = j.instructions;
  assert.equal(r.requestIndex, 2);
  assert.deepEqual(r.position.before, ["tool-result", "deferred_tools_delta"]);
  assert.equal(r.initStatus, "pending");
  assert.deepEqual(r.late, {
    missedRequests: 1,
    firstMissed: 1,
    lastMissed: 1,
    neverSent: false,
    evidence: [
      "init event: pending",
      "deferred-tools list at line 2: pendingMcpServers + still-connecting note",
      "debug log: connected 7,400 ms after the first API request",
    ],
  });
  assert.deepEqual(
    j.pendingServers.map((p: any) => [p.server, p.requestIndex]),
    [["lab", 2]],
  );
  assert.equal(j.answer.matches, true);
  assert.equal(j.answer.requestIndex, 2);
});

test("two servers in one delta; astral text: chars, code points and bytes all differ, the cut split a pair", async () => {
  const s = scenario("two-servers");
  const j = await json([s.path]);
  const raw = rawBlocks(s.records);
  assert.deepEqual(
    j.instructions.map((r: any) => [r.server, r.line, r.requestIndex]),
    raw.map((b) => [b.server, b.line, 1]),
  );
  const inv = j.instructions[0];
  assert.deepEqual({ chars: inv.chars, codePoints: inv.codePoints, utf8Bytes: inv.utf8Bytes }, sizes(raw[0]!.text));
  assert.ok(inv.chars !== inv.codePoints && inv.codePoints !== inv.utf8Bytes && inv.chars !== inv.utf8Bytes);
  assert.equal(inv.splitSurrogate, true);
  assert.equal(inv.keptChars, 2048);
  assert.deepEqual(inv.serversInCarrier, ["inventory", "lab"]);
  assert.equal(j.answer.server, "lab");
  assert.equal(j.instructions[1].answerMatches, true);
  assert.equal(inv.answerMatches, false, "the answer was about lab, not inventory");
  assert.equal(j.answer.matches, true);
});

test("removed and re-added with a changed text", async () => {
  const s = scenario("removed-changed");
  const j = await json([s.path]);
  assert.deepEqual(
    j.instructions.map((r: any) => [r.server, r.removed, r.requestIndex, r.delivery, r.changed, r.chars]),
    [
      ["lab", false, 1, 1, null, 600],
      ["lab", true, 2, 2, null, 0],
      ["lab", false, 3, 3, true, 900],
    ],
  );
  assert.equal(j.answer.deliveryLine, j.instructions[2].line);
  assert.equal(j.answer.matches, true);
});

test("other carriers: the system prompt of a prompt snapshot, a reminder in isMeta user text", async () => {
  const sp = await json([scenario("system-prompt").path]);
  assert.deepEqual(
    sp.instructions.map((r: any) => [r.server, r.carrier, r.requestIndex, r.chars, r.probe.begin]),
    [["lab", "system-prompt", 1, 1000, "PENGUIN-3300"]],
  );
  assert.deepEqual(sp.instructions[0].notAppearingIn, ["tool-definitions", "deferred-tools"]);
  const rm = await json([scenario("reminder").path]);
  assert.deepEqual(
    rm.instructions.map((r: any) => [r.server, r.carrier, r.where, r.chars]),
    [
      ["claude.ai Shop Docs", "system-reminder", "user-text", 100],
      ["lab", "system-reminder", "user-text", 700],
    ],
  );
  assert.equal(rm.answer.matches, true);
});

test("a debug log that disagrees with the transcript is flagged, on stderr too", async () => {
  const r = await runCli(["instructions", scenario("en-1000").path, "--debug-file", scenario("en-20000-truncated").debug, "--json"]);
  const j = parseEnvelope(r, "instructions");
  assert.equal(j.instructions[0].debugLog.status, "mismatch");
  assert.equal(j.instructions[0].sourceChars, null);
  assert.match(
    r.stderr,
    /debug log disagrees: the log says truncated from 20,000 to 2,048 chars, the transcript text is whole \(1,000 chars\)/,
  );
});

test("usage errors exit 2: bad probe regex, missing debug file, --wrapper-tokens without --baseline", async () => {
  const p = scenario("en-1000").path;
  for (const args of [
    ["--probe-marker", "("],
    ["--debug-file", "no/such.txt"],
    ["--wrapper-tokens", "51"],
  ]) {
    const r = await runCli(["instructions", p, ...args]);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.equal(r.stdout, "");
  }
});

test("stdin: the same rows as the file", async () => {
  const s = scenario("en-20000-truncated");
  const r = await runCli(["instructions", "-", "--json"], { stdin: readFileSync(join(ROOT, s.path)) });
  const j = parseEnvelope(r, "instructions");
  assert.deepEqual([j.instructions[0].chars, j.instructions[0].keptChars, j.instructions[0].probe.lastMarker], [2061, 2048, 2009]);
  assert.equal(j.inputs[0].path, "-");
});

test("golden outputs: table, markdown, csv", async () => {
  const late = scenario("late-server");
  const t = await runCli(["instructions", late.path, "--debug-file", late.debug, "--stream-json", late.stream]);
  assert.equal(t.code, 0, t.stderr);
  golden("instructions/late-server.table.txt", t.stdout);
  const ja = scenario("ja-3000-truncated");
  const m = await runCli([
    "instructions",
    ja.path,
    "--debug-file",
    ja.debug,
    "--baseline",
    scenario("baseline").path,
    "--wrapper-tokens",
    "51",
    "--format",
    "markdown",
  ]);
  assert.equal(m.code, 0, m.stderr);
  golden("instructions/ja-3000-truncated.md", m.stdout);
  const c = await runCli(["instructions", scenario("removed-changed").path, "--format", "csv"]);
  golden("instructions/removed-changed.csv", c.stdout);
});

test("--debug-file with the header stripped from every line (as pasted in issues) still gives the source length", async () => {
  const s = scenario("en-20000-truncated");
  const pasted = readFileSync(join(ROOT, s.debug), "utf8").replace(/^\S+ \[[A-Z]+\] /gm, "");
  assert.ok(
    !/\[DEBUG\] MCP server/.test(pasted) && /^MCP server "lab": Server instructions truncated/m.test(pasted),
    "the paste has neither time nor level",
  );
  const dir = mkdtempSync(join(tmpdir(), "ccf-paste-"));
  const file = join(dir, "pasted.txt");
  writeFileSync(file, pasted);
  const j = await json([s.path, "--debug-file", file]);
  assert.equal(j.instructions[0].sourceChars, 20000);
  assert.equal(j.instructions[0].debugLog.status, "match");
});

test("report carries the same verdict: a session with no instructions never reads 'matches what was delivered'", async () => {
  const s = scenario("baseline");
  const r = await runCli(["report", s.id, "--claude-dir", s.dir, "--format", "markdown"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /\| answer check \| nothing delivered: no instructions to check the answer against \|/);
  assert.doesNotMatch(r.stdout, /matches what was delivered/);
  const j = parseEnvelope(await runCli(["report", s.id, "--claude-dir", s.dir, "--json"]), "report");
  assert.deepEqual([j.answer.check, j.answer.matches], ["nothing-delivered", null]);
});
