import type { HeadlessRun } from "../src/analyses/headless-run.js";
import { readHeadlessRun } from "../src/pipeline/evidence.js";
import { readRecords, type RunnerOptions } from "../src/pipeline/runner.js";
import { debugLogSource, type DebugRecord } from "../src/records/debug.js";
import { documentHealth, emptyHealth, type Health } from "../src/records/health.js";
import type { AnyRecord } from "../src/records/transcript.js";
import { readTranscripts } from "../src/pipeline/transcripts.js";
import { rpcLogSource, type RpcRecord } from "../src/records/rpc.js";
import type { InputFile } from "../src/sources/input.js";

/** A debug log's records through the runner, as the commands read them (tests only: held in memory). */
export async function readDebugLog(input: InputFile, opts: RunnerOptions = {}): Promise<DebugRecord[]> {
  const out: DebugRecord[] = [];
  for await (const r of readRecords(input, debugLogSource, emptyHealth(), opts)) out.push(r);
  return out;
}

export async function readRpcLog(input: InputFile, opts: RunnerOptions = {}): Promise<RpcRecord[]> {
  const out: RpcRecord[] = [];
  for await (const r of readRecords(input, rpcLogSource, emptyHealth(), opts)) out.push(r);
  return out;
}

/** A headless run with its input's health beside it, as the single reader used to return it. */
export async function readClaudeRun(input: InputFile, opts: RunnerOptions = {}): Promise<HeadlessRun & { health: Health }> {
  const g = await readHeadlessRun(input, opts);
  return { ...g.result, health: g.health };
}

/** Transcript inputs through the runner, each record to `sink`; the inputs' health merged (tests only). */
export async function scanTranscripts(inputs: InputFile[], sink: (rec: AnyRecord) => void, opts: RunnerOptions = {}): Promise<Health> {
  const { inputs: passes } = await readTranscripts(
    inputs,
    { sink: { id: "sink", init: () => null, step: (_s: null, r: AnyRecord) => sink(r), finish: () => null } },
    opts,
  );
  return documentHealth(passes.map((p) => ({ health: p.health, share: "whole" })));
}
