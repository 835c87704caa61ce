import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, runCli, sample } from "../helpers.js";

// `claude -p --output-format json --verbose` output torn or damaged, on every command that reads
// --stream-json: what closed before the tear is kept, the tear is one malformed entry (file, line, byte),
// and an output that names no session is malformed input (exit 0, 1 under --strict), never a usage error.
const LEGACY = readFileSync(sample("logs", "claude-p", "legacy.verbose.json"));
const DUAL = readFileSync(sample("logs", "claude-p", "dual-era.json"), "utf8");
const LEGACY_SID = "e27b4c90-3d1a-4f86-a5c2-6b9e0f3d8a17";
const DEMO_SID = "c0ffee00-1111-4222-8333-444444444444";
const dir = mkdtempSync(join(tmpdir(), "ccf-torn-claude-p-"));
const none = join(dir, "no-config");
mkdirSync(none);
const put = (name: string, body: string | Buffer) => {
  const p = join(dir, name);
  writeFileSync(p, body);
  return p;
};

/** The fuzz repro: the first 2,300 of the 2,523 bytes, init and assistant whole, the result cut. */
const lastTorn = put("last-torn.json", LEGACY.subarray(0, 2300));
const LAST_TORN = "JSON array cut off inside element 3 (it starts at byte 1478; the input ends at byte 2300 before it closes)";

interface Case {
  name: string;
  file: string;
  line: number;
  reason: string | RegExp;
}
const NO_SESSION: Case[] = [
  {
    name: "torn inside the first event",
    file: put("first-torn.json", LEGACY.subarray(0, 200)),
    line: 1,
    reason: "JSON array cut off inside element 1 (it starts at byte 2; the input ends at byte 200 before it closes)",
  },
  {
    name: 'only "["',
    file: put("open.json", "["),
    line: 1,
    reason: 'JSON array cut off before its first element: the input ends at byte 1 without the closing "]"',
  },
  {
    name: "a one-line result object (--output-format json), torn",
    file: put("object-torn.json", DUAL.slice(0, 300)),
    line: 1,
    reason: "half-written last line (Unterminated string in JSON at position 300)",
  },
  {
    name: "a pretty-printed object, torn",
    file: put("pretty-torn.json", JSON.stringify(JSON.parse(DUAL), null, 2).slice(0, 400)),
    line: 1,
    reason: "JSON text cut off inside value 1 (it starts at byte 1; the input ends at byte 400 before it closes)",
  },
];

const malformedOf = (j: Record<string, any>) => j.health.malformed.map((m: any) => [m.file, m.line, m.reason]);

test("the fuzz repro with no target: the session id comes from the intact init, the tear is reported (report, requests, tools)", async () => {
  // A config dir that holds the run's session: its transcript is found through the init's session_id.
  const home = join(dir, "home");
  mkdirSync(join(home, "projects", "p"), { recursive: true });
  const transcript = join(home, "projects", "p", `${LEGACY_SID}.jsonl`);
  copyFileSync(sample("claude-home", "projects", "-tmp-lab-demo", `${DEMO_SID}.jsonl`), transcript);
  for (const command of ["report", "requests", "tools"]) {
    const r = await runCli([command, "--stream-json", lastTorn, "--claude-dir", home, "--json"]);
    const j = parseEnvelope(r, command);
    assert.deepEqual(malformedOf(j), [[lastTorn, 1, LAST_TORN]], command);
    assert.deepEqual(
      j.inputs.map((i: any) => [i.path, i.kind]),
      [
        [transcript, "transcript"],
        [lastTorn, "stream-json"],
      ],
      command,
    );
    if (command === "report") {
      assert.equal(j.run.init.sessionId, LEGACY_SID);
      assert.equal(j.run.inits, 1);
      assert.equal(j.run.assistantMessages, 1);
      assert.equal(j.run.result, null);
    }
    if (command === "requests") assert.equal(j.transcriptMissing, false);
    const strict = await runCli([command, "--stream-json", lastTorn, "--claude-dir", home, "--strict", "--json"]);
    assert.equal(strict.code, 1, command);
    assert.match(strict.stderr, /--strict: 1 malformed line/);
  }
  // No config dir holds it: still the run's session, its transcript missing, exit 0 (was exit 2).
  const j = parseEnvelope(await runCli(["report", "--stream-json", lastTorn, "--claude-dir", none, "--json"]), "report");
  assert.equal(j.run.init.sessionId, LEGACY_SID);
  assert.equal(j.run.assistantMessages, 1);
  assert.deepEqual(malformedOf(j), [[lastTorn, 1, LAST_TORN]]);
});

test("the fuzz repro with a target: init and assistant events kept beside the transcript (report, requests, tools, instructions, debug)", async () => {
  const home = sample("claude-home");
  const r = await runCli(["report", DEMO_SID, "--claude-dir", home, "--stream-json", lastTorn, "--json"]);
  const j = parseEnvelope(r, "report");
  assert.equal(j.run.init.sessionId, LEGACY_SID);
  assert.deepEqual(j.run.init.mcpServers, [{ name: "lab", status: "connected" }]);
  assert.equal(j.run.assistantMessages, 1);
  assert.equal(j.run.inits, 1);
  assert.equal(j.run.format, "json-array");
  assert.deepEqual(malformedOf(j), [[lastTorn, 1, LAST_TORN]]);
  for (const command of ["requests", "tools", "instructions"]) {
    const o = parseEnvelope(await runCli([command, DEMO_SID, "--claude-dir", home, "--stream-json", lastTorn, "--json"]), command);
    assert.deepEqual(malformedOf(o), [[lastTorn, 1, LAST_TORN]], command);
  }
  const debugLog = sample("claude-home", "debug", `${DEMO_SID}.txt`);
  const d = parseEnvelope(await runCli(["debug", debugLog, "--stream-json", lastTorn, "--json"]), "debug");
  assert.deepEqual(malformedOf(d), [[lastTorn, 1, LAST_TORN]]);
  // The init event's server status reached the debug report: it was dropped with the tear before.
  assert.ok(d.debug.servers.some((s: any) => s.name === "lab" && s.initStatus === "connected"));
  assert.equal(d.run.init.sessionId, LEGACY_SID);
});

for (const c of NO_SESSION)
  test(`no target, ${c.name}: malformed input, exit 0 (1 under --strict), never a usage error`, async () => {
    for (const command of ["report", "requests", "tools"]) {
      const r = await runCli([command, "--stream-json", c.file, "--claude-dir", none, "--json"]);
      const j = parseEnvelope(r, command);
      assert.deepEqual(malformedOf(j), [[c.file, c.line, c.reason]], command);
      // (tools prints no gather warnings at all, as before.)
      if (command !== "tools")
        assert.match(r.stderr, /no session id \(its output is malformed: see health\); no transcript was looked up/, command);
      if (command === "report") {
        assert.equal(j.run.init, null);
        assert.equal(j.run.result, null);
      }
      const strict = await runCli([command, "--stream-json", c.file, "--claude-dir", none, "--strict", "--json"]);
      assert.equal(strict.code, 1, `${command}: ${strict.stderr}`);
    }
  });

test("an empty or whitespace-only claude -p output is a warning, not a malformed line: exit 0 also with --strict", async () => {
  // CONTRACT: exit 0 for empty input. The output names no session, so no transcript is looked up.
  for (const file of [put("empty.json", ""), put("blank.json", "\n  \n")]) {
    for (const command of ["report", "requests", "tools"]) {
      const r = await runCli([command, "--stream-json", file, "--claude-dir", none, "--json"]);
      const j = parseEnvelope(r, command);
      assert.deepEqual(j.health.malformed, [], command);
      assert.equal(j.health.malformedCount, 0, command);
      assert.equal(j.health.records, 0, command);
      // (tools prints no gather warnings at all, as before.)
      if (command !== "tools")
        assert.ok(
          r.stderr.includes(`${file}: the output is empty (claude -p printed nothing); no session id, so no transcript was looked up`),
          `${command}: ${r.stderr}`,
        );
      if (command === "report") assert.equal(j.run.format, "empty");
      const strict = await runCli([command, "--stream-json", file, "--claude-dir", none, "--strict", "--json"]);
      assert.equal(strict.code, 0, `${command}: ${strict.stderr}`);
    }
    // With a target, and beside a debug log: the same warning, exit 0.
    const dbg = put("debug-for-empty.txt", "2026-09-30T05:02:11.208Z [DEBUG] started\n");
    const d = await runCli(["debug", dbg, "--stream-json", file, "--strict", "--json"]);
    assert.equal(d.code, 0, d.stderr);
    assert.ok(d.stderr.includes(`${file}: the output is empty (claude -p printed nothing)`), d.stderr);
  }
});

test('trailing garbage after "]": every event kept, the garbage one malformed entry (report and requests)', async () => {
  const file = put("trailing.json", Buffer.concat([LEGACY, Buffer.from("garbage")]));
  for (const command of ["report", "requests"]) {
    const j = parseEnvelope(await runCli([command, "--stream-json", file, "--claude-dir", none, "--json"]), command);
    assert.deepEqual(malformedOf(j), [
      [file, 2, `trailing garbage after the JSON array's closing "]" (from byte ${LEGACY.length + 1}); not read`],
    ]);
    assert.equal(j.health.malformed[0].excerpt, "garbage");
    if (command === "report") {
      assert.equal(j.run.init.sessionId, LEGACY_SID);
      assert.equal(j.run.result.totalCostUsd, 0.133673);
    }
  }
});

test("a well-formed output with claude -p messages but no session id is still the usage error it was", async () => {
  const file = put("no-id.jsonl", '{"type":"assistant","message":{"id":"m1","content":[]}}\n');
  const r = await runCli(["report", "--stream-json", file, "--claude-dir", none, "--json"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /no session id in its init or result event; give the session as a target/);
});

test("compare over a runs dir: a run's claude -p output torn as an array or as JSONL keeps its init, the tear in health and the row", async () => {
  const runs = join(dir, "runs");
  const src = sample("outputs", "staircase-runs");
  const names = ["words-52000-a", "words-62000-a"];
  for (const n of names) cpSync(join(src, n), join(runs, n), { recursive: true });
  // Run 1 as a --verbose json array cut inside its result; run 2's stream-json cut inside its last line.
  const s1 = join(runs, names[0]!, "stream.jsonl");
  const events = readFileSync(s1, "utf8").trim().split("\n");
  const array = `[${events.join(",")}]`;
  const cutAt = array.indexOf('{"type":"result"') + 50;
  writeFileSync(s1, array.slice(0, cutAt));
  const s2 = join(runs, names[1]!, "stream.jsonl");
  const lines = readFileSync(s2, "utf8");
  writeFileSync(s2, lines.slice(0, lines.length - 40));
  const r = await runCli(["compare", runs, "--json"]);
  const j = parseEnvelope(r, "compare");
  const [a, b] = j.runs;
  assert.deepEqual([a.version, a.model, a.costUsd, a.malformed], ["2.1.273", "claude-opus-5", null, 1]);
  assert.equal(b.malformed, 1);
  assert.notEqual(b.version, null);
  assert.deepEqual(malformedOf(j), [
    [
      s1,
      1,
      `JSON array cut off inside element 2 (it starts at byte ${events[0]!.length + 3}; the input ends at byte ${cutAt} before it closes)`,
    ],
    [s2, 2, "half-written last line (Unterminated string in JSON at position 258)"],
  ]);
  assert.equal((await runCli(["compare", runs, "--strict", "--json"])).code, 1);
});
