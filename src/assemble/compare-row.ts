import type { CompareRow } from "../analyses/compare.js";
import { scriptOf } from "../analyses/compare-fit.js";
import { takenInstructions, type RpcResult } from "../analyses/rpc.js";
import type { AssembledSession } from "./session.js";

/** The run's identity as `compare` reads it (pipeline/manifest.ts RunSpec). */
export interface CompareSpec {
  label: string;
  name: string;
  env: Record<string, string>;
}

/**
 * One run's row of the cross-run table: the assembled session reduced to the columns of a write-up.
 * `logs` are every server's message log of the run, in `mcpServers` order. Pure; deltas against the
 * baseline label are added over all rows by `applyBaselines`.
 */
export function compareRow(spec: CompareSpec, s: AssembledSession, logs: RpcResult[]): CompareRow {
  const main = s.requests.totals.find((t) => t.chain === "main") ?? s.requests.totals[0];
  const instr = s.instructions.rows.filter((r) => !r.removed);
  const sum = (f: (r: (typeof instr)[number]) => number | null) => (instr.length ? instr.reduce((n, r) => n + (f(r) ?? 0), 0) : null);
  const withProbe = instr.find((r) => r.probe !== null);
  const checks = new Map<string, number>();
  for (const r of s.outputs.rows) checks.set(r.check, (checks.get(r.check) ?? 0) + 1);
  const servers = s.debug?.result.debug.servers ?? [];
  const res = s.run?.run.result ?? null;
  const inv = s.inventory;
  const distinct = (vals: Array<string | null>) => {
    const set = [...new Set(vals.filter((v): v is string => v !== null))];
    return set.length ? set.join(", ") : null;
  };
  const carried = instr.map((r) => r.requestIndex).filter((x): x is number => x !== null);
  // A Claude Desktop log of several servers: each server's own answer (rpc.ts `servers`).
  const sources = logs
    .flatMap((l) => (l.servers.length > 0 ? l.servers.map((server) => takenInstructions(l, server)) : [takenInstructions(l)]))
    .filter((c) => c !== null);
  const points = sum((r) => r.codePoints);
  const bytes = sum((r) => r.utf8Bytes);
  const top = (c: Record<string, number>) => Object.entries(c).sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  return {
    label: spec.label,
    run: spec.name,
    env: envText(spec.env),
    session: s.sessionId,
    version: top(inv.versions),
    model: top(Object.fromEntries(Object.entries(inv.models).filter(([m]) => m !== "<synthetic>"))),
    requests: s.requests.totals.reduce((n, t) => n + t.requests, 0),
    firstRequestTokens: main?.firstTotalInputTokens ?? null,
    lastRequestTokens: main?.lastTotalInputTokens ?? null,
    compactions: main ? main.compactions : null,
    deltaVsBaseline: null,
    baselineLabel: null,
    baselineDiffers: null,
    instructionServers: instr.length ? [...new Set(instr.map((r) => r.server))].join(", ") : null,
    instructionChars: sum((r) => r.chars),
    instructionsRequest: carried.length ? Math.min(...carried) : null,
    keptChars: instr.some((r) => r.truncated) ? sum((r) => r.keptChars ?? r.chars) : null,
    sourceChars: instr.some((r) => r.sourceChars !== null) ? sum((r) => r.sourceChars ?? r.chars) : null,
    truncated: instr.length ? instr.some((r) => r.truncated) : null,
    codePoints: points,
    utf8Bytes: bytes,
    sourceUtf8Bytes: sources.length && sources.every((c) => c.utf8Bytes !== null) ? sources.reduce((n, c) => n + c.utf8Bytes!, 0) : null,
    script: points !== null && bytes !== null ? scriptOf(points, bytes) : null,
    renderedChars: instr[0]?.renderedChars ?? null,
    tokensPerChar: null,
    probeBegin: withProbe?.probe?.begin ?? null,
    probeEnd: withProbe?.probe?.end ?? null,
    probeLast: withProbe?.probe?.lastMarker ?? null,
    answer: s.instructions.answer?.text?.trim() ?? res?.result?.trim() ?? null,
    answerMatches: s.instructions.answer?.matches ?? null,
    firstMethod: distinct(logs.map((l) => l.firstMethod)),
    era: distinct(logs.map((l) => l.era)),
    initializeMsAfterProbe: maxOf(logs.map((l) => l.initialize?.msAfterProbe ?? null)),
    debugEra: servers.map((x) => x.protocolEra).find((x) => x !== null) ?? null,
    negotiatedProtocolVersion: servers.map((x) => x.negotiatedProtocolVersion).find((x) => x !== null) ?? null,
    connectMs: servers.length ? Math.max(...servers.map((x) => x.connectMs ?? 0)) : null,
    runtimeArm: s.debug?.result.debug.runtimeArm ?? null,
    toolResults: s.outputs.rows.length,
    checks: checks.size ? [...checks].map(([c, n]) => `${c}×${n}`).join(" ") : null,
    largestResultChars: s.outputs.rows.length ? Math.max(...s.outputs.rows.map((r) => r.fullChars ?? r.chars)) : null,
    countTokensCalls: s.debug?.result.debug.countTokensCalls ?? null,
    costUsd: res?.totalCostUsd ?? null,
    turns: res?.numTurns ?? null,
    durationMs: res?.durationMs ?? null,
    malformed: s.health.malformedCount,
    damaged: s.health.damagedCount,
    error: null,
  };
}

/**
 * `K=V` pairs in name order; null when the configuration set none. CLAUDE_CONFIG_DIR says where the
 * run wrote, not what it measured (and the runs dir holds its own copy), so it is left out.
 */
export function envText(env: Record<string, string>): string | null {
  const keys = Object.keys(env)
    .filter((k) => k !== "CLAUDE_CONFIG_DIR")
    .sort();
  return keys.length ? keys.map((k) => `${k}=${env[k]}`).join(" ") : null;
}

function maxOf(vals: Array<number | null>): number | null {
  const nums = vals.filter((v): v is number => v !== null);
  return nums.length ? Math.max(...nums) : null;
}
