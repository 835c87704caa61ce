import { countTokensFlag } from "./debug-count-tokens.js";
import type { CountTokensCall } from "./debug-count-tokens.js";

/** The parts of a debug result the findings read (structural, so debug.ts can import this file). */
interface FlagInput {
  runtimeArm: string | null;
  runtimeArmSource: string | null;
  servers: ReadonlyArray<{
    name: string;
    status: string;
    transport: string | null;
    protocolEra: string | null;
    lateByMs: number | null;
    connectMs: number | null;
    lastError: string | null;
    forcedShutdown: string | null;
    closed: string | null;
    instructionsTruncatedFrom: number | null;
    instructionsTruncatedTo: number | null;
  }>;
  countTokens: CountTokensCall[];
  countTokensFailures: number;
  /** In log order; read only up to the first failed countTokens call, and only when there is one. */
  events: Iterable<{ kind: string; line: number; text: string }>;
}

/**
 * A finding, and where it quotes evidence (a last error, a failed call's answer): the text before the quote,
 * the quote (its lines joined, whole) and the text after it. The quote is cut only where it is shown, after
 * `--redact` (report/findings.ts): a cut made here would split an id the redactor could then not see whole.
 */
export interface Finding {
  text: string;
  quote?: [before: string, quote: string, after: string];
}

/**
 * What the seed flagged, and what else a reader should not miss, each finding whole (JSON's `flags`, CSV's
 * findings): the evidence a finding quotes has its lines joined, and the human formats cut it (FLAG_QUOTE_MAX).
 */
export function debugFlags(r: FlagInput): string[] {
  return debugFindings(r).map((f) => f.text);
}

/** `debugFlags` with each finding's quote marked, for the findings table. */
export function debugFindings(r: FlagInput): Finding[] {
  const f: Finding[] = [];
  const plain = (text: string) => f.push({ text });
  const quoting = (before: string, t: string | null, after = "") => {
    const quote = condensed(t);
    f.push({ text: `${before}${quote}${after}`, quote: [before, quote, after] });
  };
  const arm = runtimeArmFlag(r);
  if (arm) plain(arm);
  for (const sv of r.servers) {
    if (sv.lateByMs !== null) {
      plain(
        `server "${sv.name}" connected ${sv.lateByMs.toLocaleString("en-US")} ms after the first API request (pending at request 1): its tools and instructions arrive with a later request`,
      );
    }
    if (sv.status === "started") plain(`server "${sv.name}" started but never connected in this log (pending, or the log ends first)`);
    if (sv.status === "failed" || sv.status === "timeout")
      quoting(`server "${sv.name}" ${sv.status === "timeout" ? "timed out" : "failed"}: `, sv.lastError);
    if (sv.status === "errored")
      quoting(
        `server "${sv.name}" had a connection error${sv.connectMs !== null ? " after connecting" : ""} and did not reconnect in this log: `,
        sv.lastError ?? sv.closed,
      );
    if (sv.status === "needs-auth")
      quoting(
        `server "${sv.name}" was refused with HTTP 401${sv.connectMs !== null ? " after connecting" : ""} (needs authentication) and did not reconnect in this log: `,
        sv.lastError,
      );
    if (sv.status === "killed") plain(`server "${sv.name}" did not stop when asked and was killed (${sv.forcedShutdown})`);
    if (sv.instructionsTruncatedFrom !== null) {
      plain(
        `server "${sv.name}" instructions truncated from ${sv.instructionsTruncatedFrom.toLocaleString("en-US")} to ${(sv.instructionsTruncatedTo ?? "?").toLocaleString("en-US")} chars (+ "… [truncated]"); the model saw only the start`,
      );
    }
  }
  if (r.countTokens.length > 0) plain(countTokensFlag(r.countTokens));
  const ctFail = r.countTokensFailures > 0 ? firstOf(r.events, "count-tokens-failed") : undefined;
  if (ctFail)
    quoting(
      `${r.countTokensFailures} countTokens API call(s) failed (first at line ${ctFail.line}: `,
      ctFail.text.replace(/^countTokens API call failed:?\s*/, ""),
      ")",
    );
  return f;
}

/** The first event of `kind`: the events may be spooled to a file, so they are walked, and only as far as that event. */
function firstOf<E extends { kind: string }>(events: Iterable<E>, kind: string): E | undefined {
  for (const e of events) if (e.kind === kind) return e;
  return undefined;
}

const ARM_SOURCE: Record<string, string> = {
  env: "an environment variable, MCP_SDK_GENERATION",
  growthbook: "a feature flag, not MCP_SDK_GENERATION",
  default: "the build's default, not MCP_SDK_GENERATION",
};

/**
 * Seed 000: the docs say the v2 runtime probes HTTP servers with server/discover, and stdio servers only
 * with MCP_PROTOCOL_NEGOTIATION=auto; the variable was unset, yet stdio was probed 20/20. A debug log
 * records the arm and its source, not the variable, and no probe: a stdio server's `protocolEra` modern
 * means it answered server/discover (the modern era has no initialize, FORMATS.md 9.2); legacy is
 * reached with or without a probe first, which only the MCP message log's first method shows.
 */
function runtimeArmFlag(r: FlagInput): string | null {
  const stdio = r.servers.filter((sv) => sv.transport === "stdio");
  if (r.runtimeArm !== "v2" || stdio.length === 0) return null;
  const how = r.runtimeArmSource && Object.hasOwn(ARM_SOURCE, r.runtimeArmSource) ? ARM_SOURCE[r.runtimeArmSource] : undefined;
  const servers = (xs: typeof stdio) => `stdio ${xs.length > 1 ? "servers" : "server"} ${xs.map((sv) => `"${sv.name}"`).join(", ")}`;
  const probed = stdio.filter((sv) => sv.protocolEra === "modern");
  const unseen = stdio.filter((sv) => sv.protocolEra !== "modern");
  const evidence = [
    ...(probed.length ? [`${servers(probed)}: connected in the modern era, so probed with server/discover`] : []),
    ...(unseen.length
      ? [
          `${servers(unseen)}: ${unseen.every((sv) => sv.protocolEra === "legacy") ? "connected legacy, " : ""}the log shows no probe either way (the MCP message log's first method does)`,
        ]
      : []),
  ];
  return [
    `mcp runtime arm v2 (source: ${r.runtimeArmSource ?? "not given"}${how ? `: ${how}` : ""})`,
    "the docs: v2 probes HTTP servers with server/discover, stdio servers only with MCP_PROTOCOL_NEGOTIATION=auto, which a debug log does not record",
    ...evidence,
  ].join("; ");
}

/** The longest quote of a finding the human formats show, `…` included (JSON and CSV carry it whole). */
export const FLAG_QUOTE_MAX = 160;

/** A multi-line message (a ZodError's issue list) condensed to one line for a finding, cut past `max` characters. */
export function condensed(t: string | null, max = Infinity): string {
  // Each white-space run that holds a line break becomes a space: what /\s*\n\s*/g did, without its
  // retry at every point of a long run of spaces (the square of the run's length).
  const one = (t ?? "").replace(/\s+/g, (w) => (w.includes("\n") ? " " : w)).trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}
