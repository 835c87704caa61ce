import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnvelope, ROOT, runCli, sample } from "../helpers.js";

const STREAM = join(ROOT, "test", "fixtures", "wrong-kind", "stream.jsonl");
const HINT = "looks like claude -p output (--output-format stream-json/json): pass it with --stream-json FILE";

test("claude -p stream-json given as the target of requests: said on stderr and in health.wrongKind", async () => {
  const r = await runCli(["requests", STREAM]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, new RegExp(`this ${HINT.replace(/[().-]/g, "\\$&")} \\(.*stream\\.jsonl, read as a transcript\\)`));
  const j = parseEnvelope(await runCli(["requests", STREAM, "--json"]), "requests");
  assert.deepEqual(j.health.wrongKind, [{ file: STREAM, readAs: "transcript", looksLike: "stream-json" }]);
});

test("report given claude -p output as its target says so in its parse health notes too", async () => {
  const r = await runCli(["report", STREAM, "--format", "markdown"]);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(r.stdout.includes(HINT), "the report's health section carries the note");
  assert.ok(r.stderr.includes(HINT));
});

test("claude -p json output (one array, on one line or pretty-printed) is named as well", async () => {
  const one = sample("logs", "claude-p", "legacy.verbose.json");
  assert.deepEqual(parseEnvelope(await runCli(["requests", one, "--json"]), "requests").health.wrongKind?.[0]?.looksLike, "stream-json");
  const dir = mkdtempSync(join(tmpdir(), "ccf-wrong-kind-"));
  const pretty = join(dir, "run.json");
  writeFileSync(
    pretty,
    JSON.stringify(
      [
        { type: "system", subtype: "init", session_id: "s" },
        { type: "result", total_cost_usd: 0.1 },
      ],
      null,
      2,
    ),
  );
  assert.deepEqual(parseEnvelope(await runCli(["requests", pretty, "--json"]), "requests").health.wrongKind?.[0]?.looksLike, "stream-json");
});

test("a debug log given as the target is named too; a real transcript is not", async () => {
  const debug = sample("claude-home", "debug", "c0ffee00-1111-4222-8333-444444444444.txt");
  const d = await runCli(["requests", debug]);
  assert.match(
    d.stderr,
    /this looks like a Claude Code debug log: pass it with --debug-file FILE, or read it with `debug` \(.*\.txt, read as a transcript\)/,
  );
  const basic = parseEnvelope(
    await runCli(["requests", sample("basic", "11111111-2222-4333-8444-555555555555.jsonl"), "--json"]),
    "requests",
  );
  assert.equal(basic.health.wrongKind, undefined);
});

test("records without the transcript envelope but with no session_id either are not taken for claude -p output", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-wrong-kind-"));
  const file = join(dir, "bare.jsonl");
  const bare = { type: "assistant", message: { id: "m", model: "x", role: "assistant", content: [], usage: { input_tokens: 1 } } };
  writeFileSync(file, JSON.stringify(bare) + "\n");
  const r = await runCli(["requests", file]);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!r.stderr.includes("looks like"), r.stderr);
  // A pretty-printed json result names its session past its eighth line.
  const result = {
    type: "result",
    subtype: "success",
    is_error: false,
    duration_ms: 1,
    duration_api_ms: 1,
    num_turns: 1,
    result: "x",
    stop_reason: "end_turn",
    session_id: "s",
    total_cost_usd: 0.1,
  };
  const pretty = join(dir, "result.json");
  writeFileSync(pretty, JSON.stringify(result, null, 2));
  assert.deepEqual(parseEnvelope(await runCli(["requests", pretty, "--json"]), "requests").health.wrongKind?.[0]?.looksLike, "stream-json");
});

test("a transcript that opens with a file-history snapshot (no envelope keys) is still taken for one", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-wrong-kind-"));
  const file = join(dir, "aaaaaaaa-2222-4333-8444-555555555555.jsonl");
  const snapshot = {
    type: "file-history-snapshot",
    messageId: "m0",
    snapshot: { messageId: "m0", trackedFileBackups: {} },
    isSnapshotUpdate: false,
  };
  const env = {
    parentUuid: null,
    isSidechain: false,
    sessionId: "aaaaaaaa-2222-4333-8444-555555555555",
    timestamp: "2026-01-01T00:00:00Z",
  };
  const assistant = {
    ...env,
    uuid: "u1",
    type: "assistant",
    message: { id: "msg_1", model: "m", role: "assistant", content: [], usage: { input_tokens: 1, output_tokens: 1 } },
  };
  writeFileSync(file, [snapshot, assistant].map((r) => JSON.stringify(r)).join("\n") + "\n");
  const r = await runCli(["requests", file]);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!r.stderr.includes("looks like"), r.stderr);
});
