import type { PendingNote } from "./instructions-evidence.js";
import type { InstructionsScan } from "./instructions.js";
import { pendingEvidence, type InstructionRow } from "./instructions-join.js";
import { checkAnswer, type AnswerCheck } from "./probe.js";
import type { RequestsResult } from "./requests.js";
import type { McpServerStatus } from "../records/streamjson.js";

/**
 * What the answer could be held against: `matches` / `mismatch` when a delivery with probe values was
 * active at the answer; `nothing-delivered` when no instructions reached the model before it (a
 * match would say nothing); `no-probe` when what reached it carries no probe values; `no-answer`
 * when the model gave no text to check.
 */
export type AnswerVerdict = "matches" | "mismatch" | "nothing-delivered" | "no-probe" | "no-answer";

export interface AnswerSummary extends Omit<AnswerCheck, "matches"> {
  /** null when there was nothing to hold the answer against, or no answer (see `check`). */
  matches: boolean | null;
  check: AnswerVerdict;
  /** The answer's text, or null when the model gave none. */
  text: string | null;
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
  const given = a?.text ?? run?.text;
  const text = given !== undefined && given.trim() !== "" ? given : null;
  // Only where each request starts: a spooled list read back whole held every row at once (1 GB: 18,000).
  const reqs: Array<{ line: number; index: number }> = [];
  for (const r of requests.requests) if (r.chain === chain) reqs.push({ line: r.line, index: r.index });
  const answerReq = a ? ([...reqs].reverse().find((r) => r.line <= a.line)?.index ?? null) : (reqs.at(-1)?.index ?? null);
  const sent = rows.filter((r) => r.chain === chain && r.requestIndex !== null && (answerReq === null || r.requestIndex <= answerReq));
  // With neither an answer nor anything delivered there is nothing to say about an answer.
  if (text === null && !sent.some((r) => !r.removed)) return null;
  const active = new Map<string, InstructionRow>();
  for (const r of sent) {
    if (r.removed) active.delete(r.server);
    else active.set(r.server, r);
  }
  const delivered = new Set<string>();
  for (const r of rows) for (const v of [r.probe?.begin, r.probe?.end]) if (v) delivered.add(v);
  const candidates = [...active.values()].filter((r) => r.probe !== null).reverse();
  const checks = text === null ? [] : candidates.map((r) => ({ r, c: checkAnswer(text, r.probe, delivered) }));
  const chosen = checks.find((x) => x.c.matches) ?? checks[0];
  for (const x of checks) x.r.answerMatches = x.c.matches;
  const against = chosen?.r ?? (text === null ? candidates[0] : undefined);
  const c = chosen?.c ?? checkAnswer(text ?? "", text === null ? (against?.probe ?? null) : null, delivered);
  const check: AnswerVerdict =
    text === null
      ? "no-answer"
      : !sent.some((r) => !r.removed)
        ? "nothing-delivered"
        : // After a removal nothing is active, yet something was delivered: the answer must then be NONE.
          !chosen && active.size > 0
          ? "no-probe"
          : c.matches
            ? "matches"
            : "mismatch";
  return {
    ...c,
    got: text === null ? { begin: null, end: null, last: null } : c.got,
    mismatches: text === null ? [] : c.mismatches,
    // With nothing delivered an answer can only be wrong (it claims a value), never right.
    matches: check === "matches" ? true : check === "mismatch" || (check === "nothing-delivered" && c.mismatches.length > 0) ? false : null,
    check,
    text,
    source: a || !run ? "transcript" : "stream-json",
    file: a?.file ?? run?.file ?? rows[0]?.file ?? "",
    line: a?.line ?? null,
    requestIndex: answerReq,
    server: against?.server ?? null,
    deliveryLine: against?.line ?? null,
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
export function pendingServers(
  rows: InstructionRow[],
  scan: InstructionsScan,
  init: { servers: McpServerStatus[] } | null,
): PendingServer[] {
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
