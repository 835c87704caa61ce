import type { InstructionRow } from "./instructions-join.js";

export type { SourceFrom } from "./instructions-join.js";

/** A server's instructions as its MCP message log shows them: the answer the client took (rpc.ts `takenInstructions`). */
export interface LoggedSource {
  /** The server's own name in that answer (`serverInfo.name`), or null. */
  server: string | null;
  chars: number;
  file: string;
  line: number;
  method: string | null;
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
    const named = logs.filter((l) => l.server === r.server);
    const pick = named.at(-1) ?? (logs.length === 1 && servers.size === 1 ? logs[0] : undefined);
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
