import { fitInstructions, type FitPoint, type InstructionsFit } from "./compare-fit.js";

/** One run of a comparison: the figures the seed write-ups tabulate, computed from that run's files. */
export interface CompareRow {
  label: string;
  run: string;
  /** The variables the run's configuration set (`K=V …`), from run.json. */
  env: string | null;
  session: string | null;
  version: string | null;
  model: string | null;
  requests: number;
  firstRequestTokens: number | null;
  lastRequestTokens: number | null;
  /** `compact_boundary` records in the main chain: with any, the last request follows a reset. */
  compactions: number | null;
  deltaVsBaseline: number | null;
  baselineLabel: string | null;
  /**
   * A variable that changes request 1 by itself (REQUEST1_VARS) set otherwise than in the baseline's runs,
   * as `ENABLE_TOOL_SEARCH=false (none: unset)`: the delta is kept but measures that too, so it is not the
   * instructions' cost (seed 000: the tool-search-off runs have no matching baseline). Null: same configuration.
   */
  baselineDiffers: string | null;
  instructionServers: string | null;
  instructionChars: number | null;
  /** The first request that carried instructions: a late server's arrive after request 1, which then does not measure them. */
  instructionsRequest: number | null;
  keptChars: number | null;
  sourceChars: number | null;
  truncated: boolean | null;
  codePoints: number | null;
  utf8Bytes: number | null;
  /** UTF-8 bytes of the text the servers sent (the message logs' answers), before any cut. */
  sourceUtf8Bytes: number | null;
  /** latin, cjk or mixed: the delivered text's bytes per code point. */
  script: string | null;
  renderedChars: number | null;
  tokensPerChar: number | null;
  probeBegin: string | null;
  probeEnd: string | null;
  probeLast: number | null;
  answer: string | null;
  answerMatches: boolean | null;
  firstMethod: string | null;
  era: string | null;
  initializeMsAfterProbe: number | null;
  debugEra: string | null;
  negotiatedProtocolVersion: string | null;
  connectMs: number | null;
  runtimeArm: string | null;
  toolResults: number;
  checks: string | null;
  largestResultChars: number | null;
  countTokensCalls: number | null;
  costUsd: number | null;
  turns: number | null;
  durationMs: number | null;
  malformed: number;
  /** Lines read despite damage (a NUL run, bytes not UTF-8): health.damagedCount of the run's evidence. */
  damaged: number;
  error: string | null;
}

export const DEFAULT_COLUMNS: Array<keyof CompareRow> = [
  "label",
  "run",
  "firstRequestTokens",
  "deltaVsBaseline",
  "instructionChars",
  "instructionsRequest",
  "truncated",
  "probeBegin",
  "probeEnd",
  "probeLast",
  "answerMatches",
  "firstMethod",
  "era",
  "checks",
  "costUsd",
];

/** Repeats of one label side by side: how far they agree (the seed's "each pair matched within 8 tokens"). */
export interface CompareGroup {
  label: string;
  runs: number;
  firstRequestMin: number | null;
  firstRequestMax: number | null;
  spread: number | null;
  deltaVsBaseline: number | null;
  /** Its runs' `baselineDiffers`, each once. */
  baselineDiffers: string | null;
  instructionChars: number | null;
  truncated: boolean | null;
  answersAgree: boolean;
  answerMatches: boolean | null;
  era: string | null;
  costUsd: number | null;
  /** max − min between the repeats of every numeric column (null where a repeat lacks the value). */
  spreads: Record<string, number | null>;
  /** Request 1 differs between repeats of one configuration (seed 003: 3,462 vs 3,295 with nothing changed). */
  drift: boolean;
}

/** Variables that change request 1 by themselves: tool search off sends every tool definition (seed 000: 36,871 tokens). */
export const REQUEST1_VARS = ["ENABLE_TOOL_SEARCH"];

/**
 * Baselines and deltas. The baseline of a run is its own `baseline` label, else `--baseline LABEL`, else
 * the runs marked `baseline: true`, else a label named `none` or `baseline`; its value is the mean of
 * that label's first requests (repeats of one configuration agree to a few tokens). `envs`: each run's
 * variables (run.json `env`), to tell a baseline of another configuration.
 */
export function applyBaselines(
  rows: CompareRow[],
  opts: { cli?: string; perRun: Array<boolean | string | undefined>; envs?: Array<Record<string, string>> },
): string | null {
  const labels = new Set(rows.map((r) => r.label));
  const marked = rows.filter((_, i) => opts.perRun[i] === true).map((r) => r.label);
  const fallback = opts.cli ?? marked[0] ?? (labels.has("none") ? "none" : labels.has("baseline") ? "baseline" : null);
  const mean = (label: string): number | null => {
    const v = rows.filter((r) => r.label === label && r.firstRequestTokens !== null).map((r) => r.firstRequestTokens!);
    // Exact: rounded, two baseline runs of 20,138 and 20,141 would put every delta half a token off.
    return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
  };
  const envOf = (i: number): Record<string, string> => opts.envs?.[i] ?? {};
  const differs = (i: number, label: string): string | null => {
    const base = rows.flatMap((r, j) => (r.label === label ? [envOf(j)] : []));
    const mine = envOf(i);
    const diff = REQUEST1_VARS.filter((k) => base.some((b) => b[k] !== mine[k]));
    if (!diff.length) return null;
    const shown = (v: string | undefined) => (v === undefined ? "unset" : v);
    return diff.map((k) => `${k}=${shown(mine[k])} (${label}: ${[...new Set(base.map((b) => shown(b[k])))].join(" / ")})`).join(", ");
  };
  rows.forEach((r, i) => {
    const own = typeof opts.perRun[i] === "string" ? (opts.perRun[i] as string) : fallback;
    if (own === null || !labels.has(own)) return;
    const b = mean(own);
    r.baselineLabel = own;
    r.deltaVsBaseline = b !== null && r.firstRequestTokens !== null ? r.firstRequestTokens - b : null;
    r.baselineDiffers = r.label === own ? null : differs(i, own);
    // The write-up's cost per character of instructions (heading and wrapper included in the delta);
    // only when request 1, the one measured, carried them, against a baseline of the same configuration.
    if (r.deltaVsBaseline !== null && r.instructionChars && r.instructionsRequest === 1 && r.baselineDiffers === null)
      r.tokensPerChar = r.deltaVsBaseline / r.instructionChars;
  });
  return fallback;
}

export function groupRows(rows: CompareRow[]): CompareGroup[] {
  const byLabel = new Map<string, CompareRow[]>();
  for (const r of rows) byLabel.set(r.label, [...(byLabel.get(r.label) ?? []), r]);
  return [...byLabel].map(([label, rs]) => {
    const first = rs.map((r) => r.firstRequestTokens).filter((x): x is number => x !== null);
    const min = first.length ? Math.min(...first) : null;
    const max = first.length ? Math.max(...first) : null;
    const deltas = rs.map((r) => r.deltaVsBaseline).filter((x): x is number => x !== null);
    const costs = rs.map((r) => r.costUsd).filter((x): x is number => x !== null);
    const answers = new Set(rs.map((r) => r.answer ?? ""));
    const one = <T>(vals: T[]): T | null => (new Set(vals).size === 1 ? vals[0]! : null);
    return {
      label,
      runs: rs.length,
      firstRequestMin: min,
      firstRequestMax: max,
      spread: min !== null && max !== null ? max - min : null,
      deltaVsBaseline: deltas.length ? deltas.reduce((a, b) => a + b, 0) / deltas.length : null,
      baselineDiffers: [...new Set(rs.map((r) => r.baselineDiffers).filter((d): d is string => d !== null))].join("; ") || null,
      instructionChars: one(rs.map((r) => r.instructionChars)),
      truncated: one(rs.map((r) => r.truncated)),
      answersAgree: answers.size === 1,
      answerMatches: rs.every((r) => r.answerMatches === true) ? true : rs.some((r) => r.answerMatches === false) ? false : null,
      era: one(rs.map((r) => r.era)),
      costUsd: costs.length ? costs.reduce((a, b) => a + b, 0) : null,
      spreads: spreadsOf(rs),
      drift: min !== null && max !== null && max > min,
    };
  });
}

function spreadsOf(rs: CompareRow[]): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const k of Object.keys(rs[0]!) as Array<keyof CompareRow>) {
    const vals = rs.map((r) => r[k]);
    if (!vals.some((v) => typeof v === "number") || vals.some((v) => v !== null && typeof v !== "number")) continue;
    const nums = vals.filter((v): v is number => typeof v === "number");
    // To 12 significant digits: 0.381 − 0.377 is 0.0040000000000000036 in binary, which a CSV would print.
    out[k] = nums.length === rs.length ? Number((Math.max(...nums) - Math.min(...nums)).toPrecision(12)) : null;
  }
  return out;
}

/** What every run cost together (`total_cost_usd` of each); null when no run reports one. */
export function totalCost(rows: CompareRow[]): number | null {
  const costs = rows.map((r) => r.costUsd).filter((x): x is number => x !== null);
  return costs.length ? costs.reduce((a, b) => a + b, 0) : null;
}

/**
 * The fit over the runs that measure instructions alone: one server's text in request 1, a delta
 * against the baseline, and no variable that changes request 1 by itself (tool search off sends
 * every tool definition).
 */
export function compareFit(rows: CompareRow[]): InstructionsFit {
  const points: FitPoint[] = rows
    .filter(
      (r) =>
        r.error === null &&
        r.label !== r.baselineLabel &&
        r.deltaVsBaseline !== null &&
        r.instructionChars !== null &&
        r.instructionsRequest === 1 &&
        r.script !== null &&
        r.instructionServers !== null &&
        !r.instructionServers.includes(",") &&
        r.baselineDiffers === null &&
        !REQUEST1_VARS.some((k) => new RegExp(`(^| )${k}=`).test(r.env ?? "")),
    )
    .map((r) => ({ run: r.run, label: r.label, script: r.script!, chars: r.instructionChars!, deltaTokens: r.deltaVsBaseline! }));
  return fitInstructions(points);
}
