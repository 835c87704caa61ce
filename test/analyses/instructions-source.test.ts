import { test } from "node:test";
import assert from "node:assert/strict";
import type { InstructionRow } from "../../src/analyses/instructions-join.js";
import { sourceDisagreements, sourceFromLogs, type LoggedSource } from "../../src/analyses/instructions-source.js";
import { parseEnvelope, runCli, sample } from "../helpers.js";

/** Only the fields the source join reads; the rest of a row does not matter to it. */
function row(server: string, o: Partial<InstructionRow> = {}): InstructionRow {
  const base = {
    server,
    truncated: true,
    removed: false,
    chars: 2061,
    keptChars: 2048,
    sourceChars: null,
    sourceFrom: null,
    messageLog: null,
  };
  return { ...base, ...o } as InstructionRow;
}
const log = (server: string | null, chars: number, line = 4): LoggedSource => ({
  server,
  chars,
  file: "rpc-log.jsonl",
  line,
  method: "initialize",
});

test("sourceFromLogs: a truncated row takes the length of its server's logged answer, and says so", () => {
  const rows = [row("lab"), row("big", { truncated: false, chars: 295, keptChars: null })];
  sourceFromLogs(rows, [log("big", 295), log("lab", 5000)]);
  assert.deepEqual(
    rows.map((r) => [r.server, r.sourceChars, r.sourceFrom]),
    [
      ["lab", 5000, "rpc-log"],
      ["big", null, null],
    ],
    "a whole text keeps sourceChars null (CONTRACT)",
  );
  assert.deepEqual(rows[0]!.messageLog, { file: "rpc-log.jsonl", line: 4, method: "initialize", chars: 5000 });
});

test("sourceFromLogs: the debug log's figure wins; an unnamed log counts only when it is the only one and one server is in play", () => {
  const fromDebug = [row("lab", { sourceChars: 20000, sourceFrom: "debug-log" })];
  sourceFromLogs(fromDebug, [log("lab", 5000)]);
  assert.deepEqual([fromDebug[0]!.sourceChars, fromDebug[0]!.sourceFrom], [20000, "debug-log"]);
  assert.deepEqual(sourceDisagreements(fromDebug, [log("lab", 5000)]).length, 1, "two files disagreeing get a word");
  assert.deepEqual(sourceDisagreements(fromDebug, [log("lab", 20000)]), []);

  const one = [row("lab")];
  sourceFromLogs(one, [log("lab-server", 5000)]);
  assert.equal(one[0]!.sourceChars, 5000, "serverInfo.name need not be the config's name");
  const two = [row("lab"), row("inventory")];
  sourceFromLogs(two, [log(null, 5000)]);
  assert.deepEqual(
    two.map((r) => r.sourceChars),
    [null, null],
    "with two servers an unnamed log could be either",
  );
});

test("sourceFromLogs: a logged text no longer than what was kept cannot be the source", () => {
  const rows = [row("lab")];
  sourceFromLogs(rows, [log("lab", 2048)]);
  assert.equal(rows[0]!.sourceChars, null);
  assert.equal(rows[0]!.sourceFrom, null);
});

test("instructions --rpc-log with no debug log: the source length from the lab log's initialize result", async () => {
  const dir = sample("instructions", "rpc-source");
  const args = ["instructions", "e5000000", "--claude-dir", dir];
  const without = parseEnvelope(await runCli([...args, "--json"]), "instructions");
  assert.deepEqual([without.instructions[0].sourceChars, without.instructions[0].sourceFrom], [null, null]);
  const r = await runCli([...args, "--rpc-log", sample("instructions", "rpc-source", "rpc-log.jsonl"), "--json"]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "");
  const j = parseEnvelope(r, "instructions");
  const lab = j.instructions[0];
  assert.deepEqual(
    [lab.server, lab.chars, lab.keptChars, lab.sourceChars, lab.sourceFrom, lab.debugLog],
    ["lab", 2061, 2048, 5000, "rpc-log", null],
  );
  assert.deepEqual([lab.messageLog.line, lab.messageLog.method], [4, "initialize"]);
  assert.deepEqual(
    j.inputs.map((i: any) => i.kind),
    ["transcript", "rpc-log"],
  );
  assert.equal(j.health.lines, without.health.lines, "a message log read alongside adds no lines");
  const table = await runCli([...args, "--rpc-log", sample("instructions", "rpc-source", "rpc-log.jsonl"), "--wide"]);
  assert.match(table.stdout, /source for lab: from the MCP message log's initialize or discover result/);
});
