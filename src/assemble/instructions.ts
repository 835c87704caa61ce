import type { DebugServer } from "../analyses/debug.js";
import { serverStatuses, type HeadlessRun, type ServerStatus } from "../analyses/headless-run.js";
import {
  answerCheck,
  baselineCheck,
  pendingServers,
  type AnswerSummary,
  type BaselineSummary,
  type PendingServer,
} from "../analyses/instructions-checks.js";
import { joinRows, type InstructionRow, type Truncation } from "../analyses/instructions-join.js";
import { resplitSections } from "../analyses/instructions.js";
import {
  droppedTextWarnings,
  sourceDisagreements,
  sourceFromLogs,
  verbatimFromLogs,
  type LoggedSource,
} from "../analyses/instructions-source.js";
import type { ProbePatterns } from "../analyses/probe.js";
import { sentEntry, sentStoreOf, takenInstructions, type InstructionsCarrier, type RpcLogServer, type RpcResult } from "../analyses/rpc.js";
import type { SentEntry } from "../analyses/rpc-texts.js";
import type { RequestsResult } from "../analyses/requests.js";
import { documentHealth, type Health, type InputHealth } from "../records/health.js";
import type { SentTexts } from "../records/mcp-instructions.js";
import type { McpServerStatus } from "../records/streamjson.js";
import type { InputFile } from "../sources/input.js";
import { transcriptParts, type BaselineEvidence, type DebugEvidence, type Gathered, type TranscriptEvidence } from "./evidence.js";

export interface InstructionsOptions {
  probe: ProbePatterns;
  wrapperTokens: number | null;
}

/** What `instructions` shows for one target, before it becomes tables. */
export interface AssembledInstructions {
  target: string;
  sessionId: string | null;
  rows: InstructionRow[];
  requests: RequestsResult;
  answer: AnswerSummary | null;
  baseline: BaselineSummary | null;
  pending: PendingServer[];
  debugLog: string | null;
  /** Per-server facts of the debug log (connect time, late by), when one was read. */
  debugServers: DebugServer[];
  /** Truncation lines no transcript text accounts for. */
  unmatchedTruncations: Truncation[];
  /** The debug log and a message log give different source lengths for one server; a message log whose texts passed the cap (droppedTextWarnings). */
  sourceDisagreements: string[];
  /** `servers`: the first init event's (before request 1); `latest`: each server's status in the latest init event that lists it. */
  init: { file: string; servers: McpServerStatus[]; latest: ServerStatus[] } | null;
  inputs: InputFile[];
  /** Each input's health with its share: transcripts, baseline and claude -p output whole, the debug log its bad lines. */
  parts: InputHealth[];
  health: Health;
}

/** The gathered evidence `instructions` joins. */
export interface InstructionsEvidence {
  transcripts: TranscriptEvidence<"requests" | "instructions">;
  debug: Gathered<DebugEvidence> | null;
  headless: Gathered<HeadlessRun> | null;
  baseline: BaselineEvidence | null;
  /** MCP message logs (their inputs and health are counted by the caller): source lengths when the debug log has none. */
  /** Message logs; `server` is the config's name for the log's server, when the run says it. */
  rpc?: Array<{ file: string; rpc: RpcResult; server?: string }>;
}

/**
 * The join of seed 000's checks: the transcript's sightings with the debug log's truncation lines and
 * connect times, the `claude -p` init statuses and answer, and the baseline's first request. Pure.
 */
export function assembleInstructions(ev: InstructionsEvidence, io: InstructionsOptions): AssembledInstructions {
  const t = ev.transcripts;
  const { requests } = t.results;
  const inputs: InputFile[] = [...t.resolved.inputs];
  const parts: InputHealth[] = transcriptParts(t);
  let debug: { file: string; truncations: Truncation[] } | null = null;
  let debugServers: DebugServer[] = [];
  if (ev.debug) {
    inputs.push(ev.debug.input);
    debug = { file: ev.debug.input.path, truncations: ev.debug.result.truncations };
    debugServers = ev.debug.result.debug.servers;
    parts.push({ health: ev.debug.health, share: "bad-lines" });
  }

  let init: AssembledInstructions["init"] = null;
  let runAnswer: { file: string; text: string } | null = null;
  if (ev.headless) {
    const { input, result: run } = ev.headless;
    inputs.push(input);
    parts.push({ health: ev.headless.health, share: "whole" });
    if (run.init) init = { file: input.path, servers: run.init.mcpServers, latest: serverStatuses(run.inits) };
    if (run.result?.result) runAnswer = { file: input.path, text: run.result.result };
  }

  const logged = loggedSources(ev.rpc ?? []);
  // Server names the other evidence gives split rendered sections where the transcript named too few.
  const names = [
    ...debugServers.map((d) => d.name),
    ...(debug?.truncations.map((x) => x.server) ?? []),
    ...(init?.servers.map((x) => x.name) ?? []),
    ...logged.flatMap((l) => (l.server !== null ? [l.server] : [])),
  ];
  // A system prompt's section ends where its last server's text does: the message logs know that text.
  const scan = resplitSections(t.results.instructions, names, sentTexts(logged));
  const rows = joinRows(scan, requests, { probe: io.probe, debug, init });
  // After the debug log's join: its truncation lines come first.
  sourceFromLogs(rows, logged);
  verbatimFromLogs(
    rows,
    scan.sightings.map((x) => x.text),
    logged,
  );
  for (const r of rows) {
    const late = debugServers.find((d) => d.name === r.server)?.lateByMs;
    if (r.late && late != null) r.late.evidence.push(`debug log: connected ${late.toLocaleString("en-US")} ms after the first API request`);
  }
  const answer = answerCheck(rows, scan, requests, runAnswer);

  let baseline: BaselineSummary | null = null;
  if (ev.baseline) {
    const b = ev.baseline;
    inputs.push(...b.inputs);
    parts.push(...transcriptParts(b));
    baseline = baselineCheck(
      rows,
      requests,
      { file: b.file, firstRequestTokens: b.firstRequestTokens, instructions: b.instructions },
      io.wrapperTokens,
    );
  }

  const used = new Set(rows.map((r) => r.debugLog?.line).filter((l): l is number => typeof l === "number"));
  return {
    target: t.resolved.target,
    sessionId: t.resolved.sessionId,
    rows,
    requests,
    answer,
    baseline,
    // Still connecting as the latest init event that names a server says: pending in init 1 and connected in init 2 is not.
    pending: pendingServers(rows, scan, init && { servers: init.latest }),
    debugLog: ev.debug?.input.path ?? null,
    debugServers,
    unmatchedTruncations: debug?.truncations.filter((x) => !used.has(x.line)) ?? [],
    sourceDisagreements: [...sourceDisagreements(rows, logged), ...droppedTextWarnings(logged)],
    init,
    inputs,
    parts,
    health: documentHealth(parts),
  };
}

/**
 * The answer each log's client took last, with the distinct texts taken in its earlier handshakes (latest occurrence
 * of each, a text equal to the taken one left out: the verbatim check and a section's end try them in that order, so
 * the results are those of every handshake's text). Carriers are indexed by handshake once. A Claude Desktop log that
 * names its servers gives one source per server, from that server's own handshakes, under the log's name for it.
 */
function loggedSources(logs: Array<{ file: string; rpc: RpcResult; server?: string }>): LoggedSource[] {
  const out: LoggedSource[] = [];
  const indexed = new Map<RpcResult, Map<number, InstructionsCarrier[]>>();
  // A Claude Desktop log of several servers (`[server]` lines): each server's own answer, by the log's name for it.
  const each: Array<{ file: string; rpc: RpcResult; server?: string; of?: RpcLogServer }> = logs.flatMap((l) =>
    l.rpc.servers.length > 0 ? l.rpc.servers.map((of) => ({ ...l, of })) : [l],
  );
  for (const l of each) {
    const c = takenInstructions(l.rpc, l.of);
    if (!c) continue;
    const handshakes = l.of ? new Set(l.of.handshakes) : null;
    let byHandshake = indexed.get(l.rpc);
    if (!byHandshake) {
      byHandshake = new Map<number, InstructionsCarrier[]>();
      for (const x of l.rpc.instructions) {
        const list = byHandshake.get(x.handshake);
        if (list) list.push(x);
        else byHandshake.set(x.handshake, [x]);
      }
      indexed.set(l.rpc, byHandshake);
    }
    const taken = sentEntry(c);
    const seen = new Set<SentEntry>(taken ? [taken] : []);
    const earlier: NonNullable<LoggedSource["earlier"]> = [];
    let earlierDropped = 0;
    for (let i = l.rpc.handshakes.length - 1; i >= 0; i--) {
      const h = l.rpc.handshakes[i]!;
      if (h.index === c.handshake || (handshakes && !handshakes.has(h.index))) continue;
      const x = takenIn(byHandshake.get(h.index) ?? [], h.era === "modern" ? "server/discover" : "initialize");
      const e = x ? sentEntry(x) : null;
      if (!x || !e || seen.has(e)) continue;
      seen.add(e);
      if (e.text === null) earlierDropped += 1;
      else earlier.push({ line: x.line, method: x.method, text: e.text });
    }
    earlier.reverse();
    out.push({
      ...(l.of ? { server: l.of.name, namedByLog: true } : { server: l.server ?? c.server }),
      chars: c.chars,
      file: l.file,
      line: c.line,
      method: c.method,
      text: taken?.text ?? null,
      earlier,
      ...(sentStoreOf(l.rpc) && (taken?.text === null || earlierDropped > 0)
        ? { dropped: { taken: taken?.text === null, earlier: earlierDropped, capChars: sentStoreOf(l.rpc)!.capChars } }
        : {}),
    });
  }
  return out;
}

/**
 * Each server's sent texts (the answer taken last first, then earlier handshakes'), by the name the log
 * gives it; a single log whose server goes by no known name serves any server, as for the length (not a server a
 * Desktop log names: it is that server's only). Undefined without logs.
 */
function sentTexts(logs: LoggedSource[]): SentTexts | undefined {
  const texts = (l: LoggedSource): string[] => [
    ...(typeof l.text === "string" ? [l.text] : []),
    ...[...(l.earlier ?? [])].reverse().map((e) => e.text),
  ];
  const held = logs.filter((l) => texts(l).length > 0);
  if (held.length === 0) return undefined;
  return (server) => {
    const named = held.filter((l) => l.server === server).reverse();
    if (named.length > 0) return named.flatMap(texts);
    return logs.length === 1 && !logs[0]!.namedByLog ? texts(held[0]!) : [];
  };
}

/** The answer a handshake's client took: the DiscoverResult on the modern path, else initialize's (as `takenInstructions`). */
function takenIn(mine: InstructionsCarrier[], method: string): InstructionsCarrier | undefined {
  return mine.find((c) => c.method === method) ?? mine[0];
}
