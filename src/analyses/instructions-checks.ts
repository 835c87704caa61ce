import type { PendingNote } from "./instructions-evidence.js";
import type { InstructionsScan } from "./instructions.js";
import { pendingEvidence, type InstructionRow } from "./instructions-join.js";
import { checkAnswer, type AnswerCheck } from "./probe.js";
import type { RequestsResult } from "./requests.js";
import type { McpServerStatus } from "../records/streamjson.js";

export interface AnswerSummary extends AnswerCheck {
  text: string;
  /** `transcript` (last assistant text of the chain) or `stream-json` (the run's `result`). */
  source: "transcript" | "stream-json";
  file: string;
  line: number | null;
  requestIndex: number | null;
  /** The delivery whose probe the answer was held against, or null when none was active (NONE expected). */
  server: string | null;
  deliveryLine: number | null;
}

/**
 * Holds the final answer against what was delivered before it: the servers whose latest delivery
 * (removals clear it) went out on or before the answer's request. With several probe-bearing
 * servers the answer is matched against each and the first that matches is reported.
 */
export function answerCheck(
  rows: InstructionRow[],
  scan: InstructionsScan,
  requests: RequestsResult,
  run: { file: string; text: string } | null,
): AnswerSummary | null {
  const chain = scan.answers.has("main") ? "main" : ([...scan.answers.keys()][0] ?? "main");
  const a = scan.answers.get(chain);
  const text = a?.text ?? run?.text;
  if (text === undefined) return null;
  const reqs = requests.requests.toArray().filter((r) => r.chain === chain);
  const answerReq = a ? ([...reqs].reverse().find((r) => r.line <= a.line)?.index ?? null) : (reqs.at(-1)?.index ?? null);
  const active = new Map<string, InstructionRow>();
  for (const r of rows) {
    if (r.chain !== chain || r.requestIndex === null || (answerReq !== null && r.requestIndex > answerReq)) continue;
    if (r.removed) active.delete(r.server);
    else active.set(r.server, r);
  }
  const delivered = new Set<string>();
  for (const r of rows) for (const v of [r.probe?.begin, r.probe?.end]) if (v) delivered.add(v);
  const candidates = [...active.values()].filter((r) => r.probe !== null).reverse();
  const checks = candidates.map((r) => ({ r, c: checkAnswer(text, r.probe, delivered) }));
  const chosen = checks.find((x) => x.c.matches) ?? checks[0];
  for (const x of checks) x.r.answerMatches = x.c.matches;
  const c = chosen?.c ?? checkAnswer(text, null, delivered);
  return {
    ...c,
    text,
    source: a ? "transcript" : "stream-json",
    file: a?.file ?? run!.file,
    line: a?.line ?? null,
    requestIndex: answerReq,
    server: chosen?.r.server ?? null,
    deliveryLine: chosen?.r.line ?? null,
  };
}

export interface BaselineSummary {
  file: string;
  baselineFirstRequestTokens: number | null;
  firstRequestTokens: number | null;
  /** First request of this session minus the baseline's: what the instructions cost, wrapper included. */
  deltaTokens: number | null;
  /** Servers whose text rode on request 1, and their chars / rendered chars together. */
  servers: string[];
  chars: number;
  renderedChars: number;
  tokensPerChar: number | null;
  charsPerToken: number | null;
  /** With `--wrapper-tokens W`: chars / (delta − W), the seed's "≈3.06 chars/token" figure. */
  wrapperTokens: number | null;
  textCharsPerToken: number | null;
  /** The baseline itself carried instructions: the delta is not "with vs without". */
  baselineHasInstructions: boolean;
}

/** The first-request token difference against a run without instructions (FORMATS.md 2.1). */
export function baselineCheck(
  rows: InstructionRow[],
  requests: RequestsResult,
  base: { file: string; firstRequestTokens: number | null; instructions: number },
  wrapperTokens: number | null,
): BaselineSummary {
  const first = requests.totals.find((t) => t.chain === "main")?.firstTotalInputTokens ?? null;
  const delta = first !== null && base.firstRequestTokens !== null ? first - base.firstRequestTokens : null;
  const inFirst = rows.filter((r) => r.chain === "main" && r.requestIndex === 1 && !r.removed);
  const chars = inFirst.reduce((n, r) => n + r.chars, 0);
  const rendered = new Map<string, number>();
  for (const r of inFirst) rendered.set(`${r.file}:${r.line}`, r.renderedChars ?? 0);
  const tpc = delta !== null && chars > 0 ? delta / chars : null;
  const cpt = delta !== null && delta > 0 ? chars / delta : null;
  const net = wrapperTokens !== null && delta !== null ? delta - wrapperTokens : null;
  const textCpt = net !== null && net > 0 ? chars / net : null;
  for (const r of inFirst) {
    r.baselineDeltaTokens = delta;
    r.tokensPerChar = tpc;
    r.textCharsPerToken = textCpt;
  }
  return {
    file: base.file,
    baselineFirstRequestTokens: base.firstRequestTokens,
    firstRequestTokens: first,
    deltaTokens: delta,
    servers: inFirst.map((r) => r.server),
    chars,
    renderedChars: [...rendered.values()].reduce((n, x) => n + x, 0),
    tokensPerChar: tpc,
    charsPerToken: cpt,
    wrapperTokens,
    textCharsPerToken: textCpt,
    baselineHasInstructions: base.instructions > 0,
  };
}

export interface PendingServer {
  server: string;
  evidence: string[];
  /** First request that carried its instructions, or null when none did. */
  requestIndex: number | null;
}

/** Servers reported as not yet connected (init `pending`, deferred-tools note), and whether their text arrived later. */
export function pendingServers(rows: InstructionRow[], scan: InstructionsScan, init: { servers: McpServerStatus[] } | null): PendingServer[] {
  const out = new Map<string, PendingServer>();
  const add = (server: string, why: string) => {
    const p = out.get(server) ?? { server, evidence: [], requestIndex: null };
    if (!p.evidence.includes(why)) p.evidence.push(why);
    out.set(server, p);
  };
  for (const s of init?.servers ?? []) if (s.status === "pending") add(s.name, "init event: pending");
  const notes: PendingNote[] = scan.evidence.get("main")?.pendingNotes ?? [];
  for (const n of notes) for (const s of n.servers) add(s, pendingEvidence(n));
  for (const p of out.values()) {
    p.requestIndex = rows.find((r) => r.chain === "main" && r.server === p.server && !r.removed)?.requestIndex ?? null;
  }
  return [...out.values()].sort((a, b) => a.server.localeCompare(b.server));
}
