import { TRUNCATION_MARKER } from "../records/mcp-instructions.js";
import type { InstructionRow } from "./instructions-join.js";

export type { SourceFrom } from "./instructions-join.js";

/** A server's instructions as its MCP message log shows them: the answer the client took (rpc.ts `takenInstructions`). */
export interface LoggedSource {
  /** The server's own name in that answer (`serverInfo.name`), the config's name the run gives, or the log's `[server]`; or null. */
  server: string | null;
  /**
   * `server` is the name a Claude Desktop log gives the connection (`[server]`, rpc.ts `servers`): the config's name,
   * so the answer is held against that server's rows only, never lent to the only server in play.
   */
  namedByLog?: boolean;
  chars: number;
  file: string;
  line: number;
  method: string | null;
  /** The text the server sent in that answer, when the log holds it. */
  text?: string | null;
  /** The texts the client took in the log's earlier handshakes (lab logs append every run; a reconnect may change the text). */
  earlier?: Array<{ line: number; method: string | null; text: string }>;
  /**
   * Texts of this log held as length and hash only (rpc-texts.ts SENT_TEXTS_CAP_CHARS): the taken one, and how many
   * distinct earlier ones. A check they could decide says unknown (verbatimPrefix null) with a warning.
   */
  dropped?: { taken: boolean; earlier: number; capChars: number };
}

/** Which logged answer a row is held against: its server's, or the only log's when one server is in play (as for the length). */
function logFor(r: InstructionRow, logs: LoggedSource[], servers: Set<string>): LoggedSource | undefined {
  const named = logs.filter((l) => l.server === r.server);
  return named.at(-1) ?? (logs.length === 1 && servers.size === 1 && !logs[0]!.namedByLog ? logs[0] : undefined);
}

/**
 * Gives a truncated row with no source length the length a message log shows (the debug log, read
 * first, has priority). Matched by server name; a log whose server goes unnamed or by another name
 * (`serverInfo.name` need not be the config's name) is used only when it is the only log and the rows
 * name one server. A logged text not longer than what was kept cannot be the source and is not used.
 */
export function sourceFromLogs(rows: InstructionRow[], logs: LoggedSource[]): void {
  if (logs.length === 0) return;
  const servers = new Set(rows.filter((r) => !r.removed).map((r) => r.server));
  for (const r of rows) {
    if (!r.truncated || r.removed || r.sourceChars !== null) continue;
    const pick = logFor(r, logs, servers);
    if (!pick || pick.chars <= (r.keptChars ?? 0)) continue;
    r.sourceChars = pick.chars;
    r.sourceFrom = "rpc-log";
    r.messageLog = { file: pick.file, line: pick.line, method: pick.method, chars: pick.chars };
  }
}

/**
 * The message log's length beside the debug log's, for rows whose source came from the debug log:
 * two evidence files that disagree (a lab log appended by another run, say) deserve a word.
 */
export function sourceDisagreements(rows: InstructionRow[], logs: LoggedSource[]): string[] {
  const out: string[] = [];
  for (const r of rows) {
    if (r.sourceFrom !== "debug-log" || r.sourceChars === null) continue;
    const l = logs.filter((x) => x.server === r.server).at(-1);
    if (l && l.chars !== r.sourceChars)
      out.push(
        `server "${r.server}": the debug log says the source had ${r.sourceChars} chars, the message log's ${l.method ?? "answer"} at ${l.file}:${l.line} has ${l.chars}; the debug log's figure is used`,
      );
  }
  return out;
}

/**
 * Holds each delivered text (`texts[i]` is row i's, as the scan's sightings give them) against what its server sent (a message log's initialize/discover
 * result): the text before the marker must be the sent text's first chars exactly, and an unmarked
 * text the whole sent text. `verbatimPrefix` stays null when no logged text is known for the server.
 * A text that matches an earlier handshake's answer (a reconnect, a lab log of several runs) is held
 * against that one; otherwise against the answer the client took last, with the first differing offset.
 */
export function verbatimFromLogs(rows: InstructionRow[], texts: ReadonlyArray<string | null>, logs: LoggedSource[]): void {
  const servers = new Set(rows.filter((r) => !r.removed).map((r) => r.server));
  rows.forEach((r, i) => {
    const text = texts[i] ?? null;
    if (r.removed || text === null) return;
    const pick = logFor(r, logs, servers);
    if (!pick || typeof pick.text !== "string") return;
    const kept = r.truncated ? text.slice(0, text.length - TRUNCATION_MARKER.length) : text;
    const cands = [{ line: pick.line, method: pick.method, text: pick.text }, ...[...(pick.earlier ?? [])].reverse()];
    const hit = cands.find((c) => differsAt(kept, c.text, r.truncated) === null);
    // No kept text matches, but one dropped over the cap might: unknown, not false (droppedTextWarnings says why).
    if (!hit && (pick.dropped?.earlier ?? 0) > 0) return;
    const against = hit ?? cands[0]!;
    const at = differsAt(kept, against.text, r.truncated);
    r.verbatimPrefix = at === null;
    r.firstDifferenceAt = at;
    r.verbatimAgainst = { file: pick.file, line: against.line, method: against.method, chars: against.text.length };
  });
}

/**
 * The first offset of `kept` where it leaves `sent`, or null when it is `sent`'s prefix (a cut text)
 * or `sent` itself (a whole one). A whole text that stops early differs where it stops.
 */
export function differsAt(kept: string, sent: string, cut: boolean): number | null {
  const n = Math.min(kept.length, sent.length);
  let i = 0;
  while (i < n && kept.charCodeAt(i) === sent.charCodeAt(i)) i++;
  if (i < kept.length) return i;
  if (!cut && kept.length < sent.length) return kept.length;
  return null;
}

/** One warning per message log whose texts were partly dropped over the cap (LoggedSource.dropped). */
export function droppedTextWarnings(logs: LoggedSource[]): string[] {
  return logs.flatMap((l) =>
    l.dropped
      ? [
          `${l.file}: the message log's instructions texts pass ${l.dropped.capChars.toLocaleString("en-US")} chars in all; ${
            l.dropped.taken ? "the taken answer's text and " : ""
          }${l.dropped.earlier.toLocaleString("en-US")} distinct earlier text(s) were kept as length and hash only, so the verbatim check says unknown where they could decide it`,
        ]
      : [],
  );
}
