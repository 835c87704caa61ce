import type { AnswerSummary } from "../analyses/instructions-checks.js";
import type { InstructionRow } from "../analyses/instructions-join.js";
import { healthTable, healthWarnings } from "./health-table.js";
import { col, type OutputDocument, type Table } from "./model.js";
import type { AssembledInstructions } from "../assemble/instructions.js";
import { excerptOf } from "../records/json.js";

// Made on first use: the first Intl formatter of a process loads ICU data (~25 ms at start-up).
let intl: Intl.NumberFormat | undefined;
let r2: Intl.NumberFormat | undefined;
const INT = { format: (n: number) => (intl ??= new Intl.NumberFormat("en-US")).format(n) };
const R2 = {
  format: (n: number) => (r2 ??= new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 3 })).format(n),
};

/** The neutral document: one row per delivery, then where/when/where-not, answer and baseline in the summary. */
export function instructionsDocument(l: AssembledInstructions): OutputDocument {
  const tables: Table[] = [deliveriesTable(l.rows), contextTable(l.rows)];
  const undelivered = l.pending.filter((p) => p.requestIndex === null);
  if (undelivered.length > 0) {
    tables.push({
      id: "instructions-pending",
      title: "Servers reported still connecting, with no instructions seen",
      columns: [col("server", "server", "text", { priority: 1 }), col("evidence", "evidence", "text", { priority: 1 })],
      rows: undelivered.map((p) => ({ server: p.server, evidence: p.evidence })),
    });
  }
  tables.push(healthTable(l.health));
  return { title: `MCP server instructions — ${l.sessionId ?? l.target}`, summary: summary(l), tables, warnings: warnings(l) };
}

const what = (r: InstructionRow) => (r.removed ? "removed" : r.delivery === 1 ? "added" : r.changed ? "re-added, changed" : "re-added");

function deliveriesTable(rows: InstructionRow[]): Table {
  const notes = [
    "chars = JS string length (the unit of the 2,048 cap), marker included; kept = chars before the 13-char `… [truncated]` marker; source = original length from the debug log",
    "rendered = characters the model saw for the whole carrier (heading and <system-reminder> wrapper included), shared by the servers in it",
  ];
  // Said once, as the empty table's own sentence: also a note, the terminal and HTML printed it twice.
  const none =
    "no MCP server instructions in these records: no mcp_instructions_delta attachment, no rendered `# MCP Server Instructions` section";
  if (rows.some((r) => r.splitSurrogate)) notes.push("§ the cut split a surrogate pair: the kept text ends in a lone high surrogate");
  const fromLog = [...new Set(rows.filter((r) => r.sourceFrom === "rpc-log").map((r) => r.server))];
  if (fromLog.length)
    notes.push(
      `source for ${fromLog.join(", ")}: from the MCP message log's initialize or discover result (no debug log truncation line for it)`,
    );
  if (rows.some((r) => r.compaction !== null))
    notes.push("compacted first: a compaction came before the next request, so this text reached the model only through the summary");
  // Only where some server's sent text is known (a message log): elsewhere the column would say nothing.
  const verbatim = rows.some((r) => r.verbatimPrefix !== null);
  if (verbatim)
    notes.push(
      "verbatim = the delivered text before the marker is exactly the first chars of what the server sent (a whole text: all of it), held against the MCP message log; `no @ N` = first differing char offset; no value = sent text unknown (no message log for that server)",
    );
  return {
    id: "instructions",
    title: "MCP server instructions",
    whenEmpty: none,
    columns: [
      col("server", "server", "text", { priority: 1 }),
      col("what", "what", "text", { priority: 1, marks: [{ key: "splitSurrogate", text: " §" }] }),
      col("carrier", "carrier", "text", { priority: 3 }),
      col("line", "line", "int", { priority: 3 }),
      requestColumn(),
      col("chars", "chars", "int", { priority: 1 }),
      col("codePoints", "code points", "int", { priority: 3 }),
      col("utf8Bytes", "UTF-8 bytes", "int", { priority: 3 }),
      col("keptChars", "kept", "int", { priority: 2 }),
      col("keptUtf8Bytes", "kept bytes", "int", { priority: 4 }),
      col("sourceChars", "source", "int", { priority: 2 }),
      col("renderedChars", "rendered", "int", { priority: 3 }),
      // Always a column (CSV: verbatimPrefix true/false/null, firstDifferenceAt); the human formats show `yes` /
      // `no @ N` and leave it out when no server's sent text is known.
      col("verbatimPrefix", "verbatim", "bool", {
        priority: 2,
        parts: ["firstDifferenceAt"],
        display: "verbatimShown",
        hideBlank: true,
      }),
      col("begin", "BEGIN", "text", { priority: 2 }),
      col("end", "END", "text", { priority: 2 }),
      col("lastMarker", "last [at N]", "int", { priority: 2 }),
    ],
    rows: rows.map((r) => ({
      server: r.chain === "main" ? r.server : `${r.server} (${r.chain})`,
      what: what(r),
      splitSurrogate: r.splitSurrogate,
      carrier: r.carrier,
      line: r.line,
      requestIndex: r.requestIndex,
      compacted: r.compaction !== null,
      chars: r.removed ? null : r.chars,
      codePoints: r.removed ? null : r.codePoints,
      utf8Bytes: r.removed ? null : r.utf8Bytes,
      keptChars: r.keptChars,
      keptUtf8Bytes: r.keptUtf8Bytes,
      sourceChars: r.sourceChars,
      renderedChars: r.renderedChars,
      verbatimPrefix: r.verbatimPrefix,
      firstDifferenceAt: r.firstDifferenceAt,
      verbatimShown: r.verbatimPrefix === false ? `no @ ${INT.format(r.firstDifferenceAt ?? 0)}` : undefined,
      begin: r.probe ? (r.probe.begin ?? "NONE") : null,
      end: r.probe ? (r.probe.end ?? "NONE") : null,
      lastMarker: r.probe?.lastMarker ?? null,
    })),
    notes,
  };
}

/** The request that carried a delivery; `none (compacted first)` where a compaction came first (CSV: a `compacted` column, always there). */
function requestColumn() {
  return col("requestIndex", "request", "int", { priority: 1, empty: "none", marks: [{ key: "compacted", text: " (compacted first)" }] });
}

function contextTable(rows: InstructionRow[]): Table {
  return {
    id: "instructions-context",
    title: "Where it sat, when it arrived, where it did not appear",
    columns: [
      col("server", "server", "text", { priority: 1 }),
      requestColumn(),
      col("position", "position in the request's records"),
      col("late", "arrival"),
      col("notIn", "not in"),
      col("debug", "debug log"),
    ],
    rows: rows.map((r) => ({
      server: r.server,
      requestIndex: r.requestIndex,
      compacted: r.compaction !== null,
      position: position(r),
      late: arrival(r),
      notIn: r.removed ? null : [...r.notAppearingIn, ...r.alsoAppearingIn.map((p) => `ALSO IN ${p}`)].join(", ") || "(no evidence)",
      debug: debug(r),
    })),
    notes: [
      "not in: the other places the write-up checked (system prompt and tool definitions from a prompt snapshot, the deferred-tools list), searched for the text's codewords or opening words",
    ],
  };
}

function position(r: InstructionRow): string | null {
  const p = r.position;
  if (!p) return r.where;
  return [...p.before, `[${r.carrier === "mcp_instructions_delta" ? "this delta" : r.where}]`, ...p.after].join(" › ");
}

function arrival(r: InstructionRow): string | null {
  if (r.removed) return null;
  const l = r.late;
  if (!l) return r.requestIndex === 1 ? "first request" : r.delivery > 1 ? "reconnect" : null;
  const missed = l.missedRequests === 1 ? `request 1 went out without it` : `requests ${l.firstMissed}–${l.lastMissed} went out without it`;
  const why = l.evidence.length ? ` (${l.evidence.join("; ")})` : "";
  return l.neverSent ? `never sent: no request after it${why}` : `late: ${missed}${why}`;
}

function debug(r: InstructionRow): string | null {
  const d = r.debugLog;
  if (!d) return r.removed ? null : "no log";
  const at = d.line !== null ? `line ${d.line}: ${INT.format(d.from ?? 0)} → ${INT.format(d.to ?? 0)}` : "no truncation line";
  return d.status === "match" ? `match (${at})` : `MISMATCH: ${d.problem}`;
}

function summary(l: AssembledInstructions): Array<[string, unknown, ("int" | "text" | "signed")?]> {
  const servers = [...new Set(l.rows.filter((r) => !r.removed).map((r) => r.server))];
  const out: Array<[string, unknown, ("int" | "text" | "signed")?]> = [
    ["deliveries", l.rows.length, "int"],
    ["servers", servers.join(", ") || "(none)"],
    ["debug log", l.debugLog ?? "none given or found"],
  ];
  if (l.init)
    out.push([
      "init event MCP servers",
      l.init.latest
        .map((s) => `${s.name}: ${s.status}${s.inits > 1 && s.firstStatus !== s.status ? ` (first: ${s.firstStatus})` : ""}`)
        .join(", ") || "(none)",
    ]);
  const a = l.answer;
  if (a) {
    out.push([
      "answer",
      a.text === null ? "(none: the model gave no text)" : `${a.text.trim()}  (${a.source}${a.line !== null ? ` line ${a.line}` : ""})`,
    ]);
    out.push([
      "delivered",
      a.check === "nothing-delivered"
        ? "nothing: no MCP instructions reached the model before the answer"
        : `BEGIN=${a.expected.begin} END=${a.expected.end} LAST=${a.expected.last}${a.server ? `  (${a.server}, line ${a.deliveryLine})` : "  (no probe values)"}`,
    ]);
    out.push(["answer check", answerVerdict(a)]);
  }
  const b = l.baseline;
  if (b) {
    out.push(["baseline first request", b.baselineFirstRequestTokens, "int"]);
    out.push(["this first request", b.firstRequestTokens, "int"]);
    out.push(["instructions cost (request 1 − baseline)", b.deltaTokens, "signed"]);
    if (b.tokensPerChar !== null)
      out.push([
        // The delta is the whole carrier: heading and wrapper (≈51 tokens) count as the text's here; --wrapper-tokens takes them out.
        "tokens per char (delta over the text's chars, wrapper included)",
        `${R2.format(b.tokensPerChar)} (${R2.format(b.charsPerToken ?? 0)} chars/token over ${INT.format(b.chars)} chars: ${b.servers.join(", ")})`,
      ]);
    if (b.textCharsPerToken !== null)
      out.push([`text chars per token (wrapper ${b.wrapperTokens} tokens removed)`, R2.format(b.textCharsPerToken)]);
  }
  return out;
}

function answerVerdict(a: AnswerSummary): string {
  switch (a.check) {
    case "matches":
      return "matches what was delivered";
    case "mismatch":
      return `MISMATCH: ${a.mismatches.join("; ")}`;
    case "nothing-delivered":
      return a.invented.length
        ? `nothing delivered, yet the answer names ${a.invented.join(", ")}`
        : "nothing delivered: no instructions to check the answer against";
    case "no-probe":
      return "nothing to check: the delivered instructions carry no probe values";
    case "no-answer":
      return "no answer: the model gave no text to check";
  }
}

/** Headings a warning names: a text of 20,000 `## ` lines made one 529 KB stderr line (JSON's innerHeadings has them all). */
export const MAX_LISTED_HEADINGS = 10;

function headingList(headings: string[]): string {
  const listed = headings.slice(0, MAX_LISTED_HEADINGS).map((h) => `"## ${excerptOf(h)}"`);
  const more = headings.length - listed.length;
  return `${listed.join(", ")}${more > 0 ? ` … and ${INT.format(more)} more (see innerHeadings in --json)` : ""}`;
}

/** Why a text's size may be wrong (InstructionRow.uncertainWhy), and what settles it. */
function uncertainSaid(r: AssembledInstructions["rows"][number]): string {
  const h = `"${r.uncertainHeading ?? ""}"`;
  const settles = "(a message log with the server's initialize/discover result settles it)";
  switch (r.uncertainWhy) {
    case "section-heading":
      return `its text was taken to end at ${h}, a heading a Claude Code section has, but the server's own text may hold that line: it may go on past it ${settles}`;
    case "past-section-heading":
      return `its text was read past ${h}, a heading a Claude Code section has, taken for the server's own line: it may end before it ${settles}`;
    case "server-heading":
      return `its block's bounds rest on a ${h} line, and the section holds more than one line for that server: a server's text may be cut short there, or hold another's ${settles}`;
    default:
      return `its text was read to the end of the system prompt block, past a heading no Claude Code section has (${h}): it may end before that heading ${settles}`;
  }
}

function warnings(l: AssembledInstructions): string[] {
  const w = healthWarnings(l.health);
  for (const r of l.rows) {
    if (r.debugLog?.status === "mismatch") w.push(`${r.file}:${r.line}: ${r.server}: debug log disagrees: ${r.debugLog.problem}`);
    if (r.renderedDisagrees) w.push(`${r.file}:${r.line}: ${r.server}: the record's stored rendering does not contain its block`);
    if (r.verbatimPrefix === false && r.verbatimAgainst)
      w.push(
        `${r.file}:${r.line}: ${r.server}: the delivered text is not a verbatim ${r.truncated ? "prefix" : "copy"} of what the server sent (${r.verbatimAgainst.method ?? "answer"} at ${r.verbatimAgainst.file}:${r.verbatimAgainst.line}): first difference at char ${INT.format(r.firstDifferenceAt ?? 0)}`,
      );
    // In a rendered section (no addedNames beside it) a `## ` line is a server only under a name the evidence knows.
    if (r.carrier !== "mcp_instructions_delta" && r.innerHeadings.length > 0)
      w.push(
        `${r.file}:${r.line}: ${r.server}: kept ${headingList(r.innerHeadings)} inside its text: no server of that name is known from the session, debug log, init event or message log, or the line is not where that server's one block in the section opens`,
      );
    if (r.endUncertain) w.push(`${r.file}:${r.line}: ${r.server}: ${uncertainSaid(r)}`);
  }
  w.push(...l.sourceDisagreements);
  for (const t of l.unmatchedTruncations)
    w.push(`${t.file}:${t.line}: truncation of "${t.server}" (${t.from} → ${t.to}) matches no instructions in the transcript`);
  if (l.baseline?.baselineHasInstructions)
    w.push(`baseline ${l.baseline.file} carries MCP instructions itself: the delta is not with-vs-without`);
  if (l.answer && l.answer.invented.length > 0)
    w.push(`the answer names codewords that were never delivered: ${l.answer.invented.join(", ")}`);
  return w;
}
