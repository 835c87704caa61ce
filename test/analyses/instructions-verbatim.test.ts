import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { differsAt } from "../../src/analyses/instructions-source.js";
import { parseEnvelope, runCli, sample } from "../helpers.js";

test("differsAt: a cut text must be the sent text's first chars, a whole text the sent text itself", () => {
  const sent = "BEGIN codeword: HERON-4821. [at 28] filler END codeword: OSPREY-3094.";
  assert.equal(differsAt(sent.slice(0, 30), sent, true), null);
  assert.equal(differsAt(sent, sent, false), null);
  assert.equal(differsAt(sent.slice(0, 30), sent, false), 30, "a whole (unmarked) text that stops early differs where it stops");
  assert.equal(differsAt("BEGIN codeword: HERON-4822.", sent, true), 25);
  assert.equal(differsAt(`${sent}!`, sent, false), sent.length, "longer than what was sent");
  const pair = "ab\u{20BB7}cd";
  assert.equal(differsAt(pair.slice(0, 3), pair, true), null, "a cut inside a surrogate pair is still a prefix, unit for unit");
});

const DIR = sample("instructions", "rpc-source");
const LOG = sample("instructions", "rpc-source", "rpc-log.jsonl");
const args = ["instructions", "e5000000", "--claude-dir", DIR];

test("instructions --rpc-log: the 2,048 kept chars are the first 2,048 of the initialize result's 5,000 (verbatimPrefix true)", async () => {
  const r = await runCli([...args, "--rpc-log", LOG, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const lab = parseEnvelope(r, "instructions").instructions[0];
  assert.deepEqual([lab.server, lab.truncated, lab.keptChars, lab.verbatimPrefix, lab.firstDifferenceAt], ["lab", true, 2048, true, null]);
  assert.deepEqual(lab.verbatimAgainst, { file: LOG, line: 4, method: "initialize", chars: 5000 });
  const table = await runCli([...args, "--rpc-log", LOG, "--format", "markdown"]);
  assert.match(table.stdout, /\| verbatim \|/);
  assert.match(table.stdout, /\| yes \|/);
});

test("instructions without a message log: the sent text is unknown, verbatimPrefix null and no verbatim column", async () => {
  const r = await runCli([...args, "--json"]);
  const lab = parseEnvelope(r, "instructions").instructions[0];
  assert.deepEqual([lab.verbatimPrefix, lab.firstDifferenceAt, lab.verbatimAgainst], [null, null, null]);
  const table = await runCli([...args, "--format", "markdown"]);
  assert.doesNotMatch(table.stdout, /verbatim/);
});

test("instructions --rpc-log: a sent text that differs at char 100 gives verbatimPrefix false, the offset, a warning", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-verbatim-"));
  const lines = readFileSync(LOG, "utf8").split("\n");
  const at = lines.findIndex((l) => l.includes('"instructions":'));
  const msg = JSON.parse(lines[at]!);
  const text: string = msg.result.instructions;
  const c = text[100] === "x" ? "y" : "x";
  msg.result.instructions = text.slice(0, 100) + c + text.slice(101);
  lines[at] = JSON.stringify(msg);
  const log = join(dir, "rpc-log.jsonl");
  writeFileSync(log, lines.join("\n"));
  const r = await runCli([...args, "--rpc-log", log, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const j = parseEnvelope(r, "instructions");
  const lab = j.instructions[0];
  assert.deepEqual([lab.verbatimPrefix, lab.firstDifferenceAt, lab.sourceChars], [false, 100, 5000]);
  assert.match(
    r.stderr,
    /lab: the delivered text is not a verbatim prefix of what the server sent \(initialize at .*:4\): first difference at char 100\n/,
  );
  const table = await runCli([...args, "--rpc-log", log, "--format", "markdown"]);
  assert.match(table.stdout, /\| no @ 100 \|/);
});

test("verbatimFromLogs: a reconnect's text is held against the handshake that sent it; no log for the server leaves null", async () => {
  const { verbatimFromLogs } = await import("../../src/analyses/instructions-source.js");
  const row = (server: string, truncated: boolean) =>
    ({ server, truncated, removed: false, verbatimPrefix: null, firstDifferenceAt: null, verbatimAgainst: null }) as any;
  const v1 = "BEGIN codeword: A-1. first text";
  const v2 = "BEGIN codeword: B-2. second text";
  const rows = [row("lab", false), row("lab", false), row("docs", false)];
  const log = {
    server: "lab",
    chars: v2.length,
    file: "rpc.jsonl",
    line: 40,
    method: "initialize",
    text: v2,
    earlier: [{ line: 4, method: "initialize", text: v1 }],
  };
  verbatimFromLogs(rows, [v1, v2, "use docs"], [log]);
  assert.deepEqual(
    rows.map((r) => [r.verbatimPrefix, r.firstDifferenceAt, r.verbatimAgainst?.line ?? null]),
    [
      [true, null, 4],
      [true, null, 40],
      [null, null, null],
    ],
  );
  const wrong = [row("lab", false)];
  verbatimFromLogs(wrong, ["BEGIN codeword: C-3. other"], [log]);
  assert.deepEqual([wrong[0].verbatimPrefix, wrong[0].firstDifferenceAt, wrong[0].verbatimAgainst.line], [false, 16, 40]);
});
