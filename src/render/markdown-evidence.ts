import type { CommandOutput } from "../report/envelope.js";
import { formatBytes } from "./kinds.js";
import { idLabel, type ShortIds } from "./markdown-ids.js";
import { mdHeading, mdInline } from "./md-escape.js";

/** What the Evidence list names besides the ids: the files read and how they parsed. */
export type MarkdownEvidence = Pick<CommandOutput, "inputs" | "health">;

/** A sessions listing over a large config dir reads thousands of files; the page names the first ones and --json all. */
export const MAX_LISTED_FILES = 50;

const KIND_NAMES: Record<string, string> = {
  transcript: "transcript",
  "subagent-transcript": "subagent transcript",
  "debug-log": "debug log",
  "rpc-log": "MCP message log",
  "stream-json": "claude -p output",
  "tool-result": "saved tool result",
};

const INT = new Intl.NumberFormat("en-US");
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * The document's last section: the files read (kind, path, size), every id the tables show shortened
 * with its full form, and the parse health in one line. `--redact` has shortened the paths and ids
 * before this sees them, so the list is as redacted as the rest.
 */
export function* evidenceLines(level: number, ids: ShortIds, evidence: MarkdownEvidence | undefined): Generator<string> {
  const inputs = evidence?.inputs ?? [];
  const short = ids.list();
  if (inputs.length === 0 && short.length === 0 && !evidence?.health) return;
  yield* [`${"#".repeat(level)} ${mdHeading("Evidence")}`, ""];
  if (inputs.length > 0) {
    yield* [filesReadHeading(inputs), ""];
    for (const f of listedFiles(inputs)) yield `- ${mdInline(f.kind)}: ${mdInline(f.path)} (${f.size})`;
    const more = moreFiles(inputs);
    if (more) yield `- ${more}`;
    yield "";
  }
  if (short.length > 0) {
    yield* ["Ids as the tables show them, in full:", ""];
    // A UUID that names a file read (a transcript, its debug log) is a session.
    const sessions = new Set(inputs.flatMap((f) => f.path.match(UUID) ?? []));
    for (const { short: s, full } of short) {
      const label = idLabel(full) === "id" ? (sessions.has(full) ? "session " : "") : `${idLabel(full)} `;
      yield `- ${mdInline(s)} — ${label}${mdInline(full)}`;
    }
    yield "";
  }
  if (evidence?.health) yield healthLine(evidence.health);
}

/** The files-read list's lead line: `Files read (3):`. */
export const filesReadHeading = (inputs: MarkdownEvidence["inputs"]) => `Files read (${INT.format(inputs.length)}):`;

/** The files the list names (the first MAX_LISTED_FILES), as plain text for the format to escape: kind, path, size. */
export function listedFiles(inputs: MarkdownEvidence["inputs"]): Array<{ kind: string; path: string; size: string }> {
  return inputs.slice(0, MAX_LISTED_FILES).map((f) => ({
    kind: f.toolsList ? "tools/list response" : (KIND_NAMES[f.kind] ?? f.kind),
    path: f.path === "-" ? "stdin" : f.path,
    size: formatBytes(f.bytes),
  }));
}

/** The last item of a list cut at MAX_LISTED_FILES, or "" when every file is named. */
export const moreFiles = (inputs: MarkdownEvidence["inputs"]) =>
  inputs.length > MAX_LISTED_FILES ? `… and ${INT.format(inputs.length - MAX_LISTED_FILES)} more (--json lists every input)` : "";

/** The parse health in one sentence. */
export function healthLine(h: NonNullable<MarkdownEvidence["health"]>): string {
  const unknown = Object.values(h.unknownTypes).reduce((a, b) => a + b, 0) + (h.unknownTypesOther?.records ?? 0);
  return (
    `Parse health: ${INT.format(h.lines)} lines, ${INT.format(h.records)} records, ${INT.format(h.blankLines)} blank, ` +
    `${INT.format(h.malformedCount)} malformed, ` +
    (h.damagedCount ? `${INT.format(h.damagedCount)} damaged (read all the same), ` : "") +
    `${INT.format(unknown)} of an unknown type.`
  );
}
