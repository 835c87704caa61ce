import { test } from "node:test";
import assert from "node:assert/strict";
import { parseEnvelope, runCli, sample } from "../helpers.js";

const SESSION = ["c0ffee00", "--claude-dir", sample("claude-home")];
const RPC = ["--rpc-log", sample("demo", "rpc-log.jsonl")];
const RUN = ["--stream-json", sample("demo", "claude-p.stream.jsonl")];
const health = async (command: string, args: string[]) => parseEnvelope(await runCli([command, ...args, "--json"]), command).health;

test("the same inputs give the same health in every command (transcript + claude -p whole, logs alongside by their bad lines)", async () => {
  const report = await health("report", [...SESSION, ...RUN]);
  assert.deepEqual(await health("instructions", [...SESSION, ...RUN]), report);
  // 22 transcript lines + 14 claude -p lines; the 35-line debug log found beside the session is read, not counted.
  assert.equal(report.lines, 36);
  assert.deepEqual(await health("report", [...SESSION, ...RUN, ...RPC]), report, "a message log read alongside adds no lines");
  const outputs = await health("outputs", [...SESSION, ...RPC]);
  assert.deepEqual(await health("report", [...SESSION, ...RPC]), outputs);
  assert.deepEqual(await health("requests", SESSION), outputs);
});

test("a log given as the command's own file counts whole", async () => {
  const debug = await health("debug", [sample("claude-home", "debug", "c0ffee00-1111-4222-8333-444444444444.txt")]);
  assert.equal(debug.lines, 35);
  const rpc = await health("rpc", [sample("demo", "rpc-log.jsonl")]);
  assert.equal(rpc.lines, 7, "the demo's lab log: 4 messages received, 3 answers sent");
});
