import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rpcAnalysis, rpcAnalysisOf, sentEntry, sentStoreOf, sentText, type RpcResult } from "../../src/analyses/rpc.js";
import { verbatimFromLogs, type LoggedSource } from "../../src/analyses/instructions-source.js";
import { SentStore } from "../../src/analyses/rpc-texts.js";
import { readRpcLog } from "../read.js";
import { parseEnvelope, runCli, sample } from "../helpers.js";

const LOG = sample("instructions", "rpc-source", "rpc-log.jsonl");
const lines = readFileSync(LOG, "utf8")
  .split("\n")
  .filter((l) => l !== "");
const answerAt = lines.findIndex((l) => l.includes('"instructions":'));
const SENT: string = JSON.parse(lines[answerAt]!).result.instructions;

/** One lab run's handshake (as the sample's): initialize, its answer carrying `text`, initialized, tools/list. */
function run(text: string, sec: number): string[] {
  const t = `2026-09-30T10:${String(Math.floor(sec / 60)).padStart(2, "0")}:${String(sec % 60).padStart(2, "0")}.000Z`;
  return [
    {
      t,
      dir: "in",
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "claude-code", version: "2.1.285" } },
    },
    {
      t,
      dir: "out",
      jsonrpc: "2.0",
      id: 0,
      result: {
        protocolVersion: "2025-11-25",
        capabilities: { tools: {} },
        serverInfo: { name: "lab", version: "0.0.1" },
        instructions: text,
      },
    },
    { t, dir: "in", jsonrpc: "2.0", method: "notifications/initialized" },
    { t, dir: "in", jsonrpc: "2.0", id: 1, method: "tools/list" },
  ].map((m) => JSON.stringify(m));
}

function write(body: string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), "ccf-rpctexts-")), "rpc-log.jsonl");
  writeFileSync(file, `${body.join("\n")}\n`);
  return file;
}

async function read(path: string, a = rpcAnalysis): Promise<RpcResult> {
  const s = a.init();
  for (const r of await readRpcLog({ path, kind: "rpc-log", bytes: 0, sha256: "" })) a.step(s, r);
  return a.finish(s);
}

test("rpc keeps no sent text: its reducer's carriers have none, the texts-keeping one has the sent text", async () => {
  const plain = await read(LOG);
  assert.equal(plain.instructions.length, 1);
  assert.equal(plain.instructions[0]!.chars, 5000);
  assert.equal(sentEntry(plain.instructions[0]!), null);
  assert.equal(sentText(plain.instructions[0]!), null);
  assert.equal(sentStoreOf(plain), null);
  const kept = await read(LOG, rpcAnalysisOf({ sentTexts: true }));
  assert.equal(sentText(kept.instructions[0]!), SENT);
  assert.deepEqual(sentStoreOf(kept), { dropped: 0, capChars: 8 * 1024 * 1024 });
});

test("one copy per distinct text: five runs sending the same text share one entry, a changed text gets its own", async () => {
  const other = `${SENT.slice(0, 100)}!${SENT.slice(101)}`;
  const log = write([...[0, 1, 2, 3, 4].flatMap((i) => run(SENT, i)), ...run(other, 5)]);
  const r = await read(log, rpcAnalysisOf({ sentTexts: true }));
  const entries = r.instructions.map((c) => sentEntry(c));
  assert.equal(entries.length, 6);
  assert.equal(new Set(entries).size, 2);
  assert.ok(entries.slice(0, 5).every((e) => e === entries[0]));
  assert.equal(entries[0]!.text, SENT);
  assert.equal(entries[5]!.text, other);
});

test("the cap: older distinct texts past it keep length and hash only, the newest stays; a re-sent text is held again", () => {
  const s = new SentStore(25);
  const a = s.add("a".repeat(10));
  const b = s.add("b".repeat(10));
  const c = s.add("c".repeat(10));
  assert.deepEqual([a.text, b.text?.length, c.text?.length], [null, 10, 10]);
  assert.deepEqual(s.stats, { distinct: 3, keptChars: 20, dropped: 1 });
  assert.equal(a.chars, 10);
  assert.match(a.sha256, /^[0-9a-f]{64}$/);
  const big = s.add("d".repeat(40));
  assert.deepEqual([b.text, c.text, big.text?.length], [null, null, 40], "the newest is kept even alone over the cap");
  assert.equal(s.add("a".repeat(10)), a);
  assert.equal(a.text, "a".repeat(10));
  assert.deepEqual(s.stats, { distinct: 4, keptChars: 10, dropped: 3 });
});

test("verbatimFromLogs: no kept text matches but a dropped earlier one might: unknown (null), not false", () => {
  const row = () =>
    ({ server: "lab", removed: false, truncated: false, verbatimPrefix: null, firstDifferenceAt: null, verbatimAgainst: null }) as any;
  const log: LoggedSource = { server: "lab", chars: 3, file: "l.jsonl", line: 9, method: "initialize", text: "xyz", earlier: [] };
  const held = [row()];
  verbatimFromLogs(held, ["abc"], [log]);
  assert.deepEqual([held[0].verbatimPrefix, held[0].firstDifferenceAt], [false, 0]);
  const unknown = [row()];
  verbatimFromLogs(unknown, ["abc"], [{ ...log, dropped: { taken: false, earlier: 1, capChars: 8 } }]);
  assert.deepEqual([unknown[0].verbatimPrefix, unknown[0].firstDifferenceAt, unknown[0].verbatimAgainst], [null, null, null]);
  const hit = [row()];
  verbatimFromLogs(hit, ["xyz"], [{ ...log, dropped: { taken: false, earlier: 1, capChars: 8 } }]);
  assert.equal(hit[0].verbatimPrefix, true, "a kept text that matches still decides");
});

test("instructions --rpc-log past the 8 MiB cap: the delivered text's run was dropped, so verbatim is unknown with a warning", async () => {
  // The sample's run, then nine later runs each sending a distinct 1 MiB text (9 MiB in all): the first two runs' texts are dropped (the oldest go first).
  const mib = (i: number) => `${String(i)} ${"x".repeat(1024 * 1024 - 2)}`;
  const log = write([...lines, ...[1, 2, 3, 4, 5, 6, 7, 8, 9].flatMap((i) => run(mib(i), i))]);
  const args = ["instructions", "e5000000", "--claude-dir", sample("instructions", "rpc-source"), "--rpc-log", log, "--json"];
  const r = await runCli(args);
  assert.equal(r.code, 0, r.stderr);
  const lab = parseEnvelope(r, "instructions").instructions[0];
  assert.deepEqual(
    [lab.server, lab.keptChars, lab.verbatimPrefix, lab.firstDifferenceAt, lab.verbatimAgainst],
    ["lab", 2048, null, null, null],
  );
  assert.match(r.stderr, /instructions texts pass 8,388,608 chars in all; 2 distinct earlier text\(s\) were kept as length and hash only/);
  // Under the cap (the sample's run, then one 1 MiB run) the same text is still found in the earlier run.
  const small = write([...lines, ...run(mib(1), 1)]);
  const ok = parseEnvelope(await runCli([...args.slice(0, -3), "--rpc-log", small, "--json"]), "instructions").instructions[0];
  assert.deepEqual([ok.verbatimPrefix, ok.verbatimAgainst.line], [true, 4]);
});
