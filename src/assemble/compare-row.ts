import type { CompareRow } from "../analyses/compare.js";
import type { AssembledSession } from "./session.js";

/**
 * One run's row of the cross-run table: the assembled session reduced to the columns of a write-up.
 * Pure; deltas against the baseline label are added over all rows by `applyBaselines`.
 */
export function compareRow(spec: { label: string; name: string }, s: AssembledSession): CompareRow {
  const main = s.requests.totals.find((t) => t.chain === "main") ?? s.requests.totals[0];
  const instr = s.instructions.rows.filter((r) => !r.removed);
  const sum = (f: (r: (typeof instr)[number]) => number | null) => (instr.length ? instr.reduce((n, r) => n + (f(r) ?? 0), 0) : null);
  const withProbe = instr.find((r) => r.probe !== null);
  const checks = new Map<string, number>();
  for (const r of s.outputs.rows) checks.set(r.check, (checks.get(r.check) ?? 0) + 1);
  const servers = s.debug?.result.debug.servers ?? [];
  const res = s.run?.run.result ?? null;
  const inv = s.inventory;
  const top = (c: Record<string, number>) => Object.entries(c).sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  return {
    label: spec.label,
    run: spec.name,
    session: s.sessionId,
    version: top(inv.versions),
    model: top(Object.fromEntries(Object.entries(inv.models).filter(([m]) => m !== "<synthetic>"))),
    requests: s.requests.totals.reduce((n, t) => n + t.requests, 0),
    firstRequestTokens: main?.firstTotalInputTokens ?? null,
    lastRequestTokens: main?.lastTotalInputTokens ?? null,
    compactions: main ? main.compactions : null,
    deltaVsBaseline: null,
    baselineLabel: null,
    instructionServers: instr.length ? [...new Set(instr.map((r) => r.server))].join(", ") : null,
    instructionChars: sum((r) => r.chars),
    keptChars: instr.some((r) => r.truncated) ? sum((r) => r.keptChars ?? r.chars) : null,
    sourceChars: instr.some((r) => r.sourceChars !== null) ? sum((r) => r.sourceChars ?? r.chars) : null,
    truncated: instr.length ? instr.some((r) => r.truncated) : null,
    codePoints: sum((r) => r.codePoints),
    utf8Bytes: sum((r) => r.utf8Bytes),
    renderedChars: instr[0]?.renderedChars ?? null,
    tokensPerChar: null,
    probeBegin: withProbe?.probe?.begin ?? null,
    probeEnd: withProbe?.probe?.end ?? null,
    probeLast: withProbe?.probe?.lastMarker ?? null,
    answer: s.instructions.answer?.text?.trim() ?? res?.result?.trim() ?? null,
    answerMatches: s.instructions.answer?.matches ?? null,
    firstMethod: s.rpc?.result.firstMethod ?? null,
    era: s.rpc?.result.era ?? null,
    initializeMsAfterProbe: s.rpc?.result.initialize?.msAfterProbe ?? null,
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
    error: null,
  };
}
