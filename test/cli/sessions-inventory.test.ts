import { test } from "node:test";
import assert from "node:assert/strict";
import { parseEnvelope, runCli, sample } from "../helpers.js";
import { parseSince } from "../../src/commands/sessions.js";

const SUB = sample("subagents", "claude");
const HOME = sample("claude-home");

test("sessions: every main session under the config dirs, newest first, project from cwd (not the lossy folder name)", async () => {
  const j = parseEnvelope(await runCli(["sessions", "--claude-dir", SUB, "--claude-dir", HOME, "--json"]), "sessions");
  const byId = Object.fromEntries(j.sessions.map((s: any) => [s.sessionId, s]));
  assert.ok(!Object.keys(byId).some((id) => id.startsWith("agent-")), "agent files are not sessions");
  assert.equal(byId["abcdef12-0000-4000-8000-000000000001"].project, "/home/dev/my.app");
  assert.equal(byId["abcdef12-0000-4000-8000-000000000002"].project, "/home/dev/my_app");
  const a = byId["2a2a2a2a-0000-4000-8000-00000000000a"];
  assert.equal(a.requests, 4);
  assert.equal(a.subagents, 2);
  assert.deepEqual(a.versions, ["2.1.73", "2.1.241"]);
  assert.equal(byId["2b2b2b2b-0000-4000-8000-00000000000b"].subagents, 1, "the decoy agent file is not counted");
  const last = j.sessions.map((s: any) => s.lastTimestamp);
  assert.deepEqual(last, [...last].sort().reverse());
});

test("sessions --project filters on cwd; --since on the last activity", async () => {
  const p = parseEnvelope(await runCli(["sessions", "--claude-dir", HOME, "--project", "my.app", "--json"]), "sessions");
  assert.deepEqual(
    p.sessions.map((s: any) => s.sessionId).filter((s: string) => s.startsWith("abcdef12")),
    ["abcdef12-0000-4000-8000-000000000001"],
  );
  const s = parseEnvelope(await runCli(["sessions", "--claude-dir", SUB, "--since", "2026-06-01", "--json"]), "sessions");
  assert.deepEqual(
    s.sessions.map((x: any) => x.sessionId),
    ["2a2a2a2a-0000-4000-8000-00000000000a"],
  );
  const bad = await runCli(["sessions", "--claude-dir", SUB, "--since", "yesterday-ish"]);
  assert.equal(bad.code, 2);
});

test("parseSince takes ISO dates and spans", () => {
  const now = Date.parse("2026-11-30T00:00:00Z");
  assert.equal(parseSince("7d", now), "2026-11-23T00:00:00.000Z");
  assert.equal(parseSince("12h", now), "2026-11-29T12:00:00.000Z");
  assert.equal(parseSince("2026-11-01", now), "2026-11-01T00:00:00.000Z");
  assert.equal(parseSince(undefined, now), undefined);
});

test("inventory: record types, attachment kinds, system subtypes, versions, snake-case ids, across main + subagents", async () => {
  const j = parseEnvelope(await runCli(["inventory", "2a2a2a2a", "--claude-dir", SUB, "--json"]), "inventory");
  const inv = j.inventory;
  assert.equal(inv.recordTypes.progress, 3);
  assert.equal(inv.snakeCaseSessionIds, 8);
  assert.deepEqual(Object.keys(inv.versions).sort(), ["2.1.241", "2.1.73"]);
  assert.deepEqual(Object.keys(inv.sessionIds), ["2a2a2a2a-0000-4000-8000-00000000000a"]);
  assert.equal(Object.keys(inv.chains).length, 3);
  assert.ok(inv.sidechainRecords > 0);
});

test("inventory of a damaged file: unknown types counted by type, malformed by line", async () => {
  const j = parseEnvelope(
    await runCli(["inventory", sample("damaged", "33333333-4444-4555-8666-777777777777.jsonl"), "--json"]),
    "inventory",
  );
  assert.deepEqual(j.inventory.unknownTypes, { "hologram-frame": 1, "(no type)": 1 });
  // Line 9 (a record, then 256 NULs a crash left) is read and counted as damaged, not malformed.
  assert.equal(j.inventory.malformed, 8);
  assert.equal(j.health.malformedCount, 8);
  assert.equal(j.health.damagedCount, 1);
  assert.equal(j.inventory.recordTypes["queue-operation"], 1);
});
