import { arr, isObject } from "../records/json.js";
import type { AnyRecord } from "../records/transcript.js";

/** The places the write-up looked for the text besides its carrier (FORMATS.md 2.2). */
export type Place = "system-prompt" | "tool-definitions" | "deferred-tools";

export const PLACES: readonly Place[] = ["system-prompt", "tool-definitions", "deferred-tools"];

/** A deferred-tools list said a server was still connecting (FORMATS.md 2.4, 5.2). */
export interface PendingNote {
  file: string;
  line: number;
  servers: string[];
  /** `pendingMcpServers` (the field), `still-connecting note` (the rendered text), or both. */
  sources: string[];
}

/** Per chain: the texts of the other places, and the "still connecting" notes. */
export interface ChainEvidence {
  texts: Record<Place, string[]>;
  /** Distinct texts kept, to bound memory when every request repeats its snapshot. */
  seen: Set<string>;
  chars: number;
  /** Places whose texts were not all kept (over MAX_EVIDENCE_CHARS): absence cannot be claimed there. */
  overflow: Set<Place>;
  pendingNotes: PendingNote[];
}

/** A system prompt is ≈6,662 chars and tool definitions tens of KB; this keeps many distinct snapshots. */
export const MAX_EVIDENCE_CHARS = 32 * 1024 * 1024;

export function emptyEvidence(): ChainEvidence {
  return {
    texts: { "system-prompt": [], "tool-definitions": [], "deferred-tools": [] },
    seen: new Set(),
    chars: 0,
    overflow: new Set(),
    pendingNotes: [],
  };
}

/** `The following MCP servers are still connecting — …:` then one server per line (SEED 000; rest of the sentence unverified). */
const STILL_CONNECTING = /The following MCP servers are still connecting[^\n]*\n((?:[^\n]+(?:\n|$))*)/;
const MCP_TOOL = /^mcp__(.+?)__/;

/**
 * Feeds one record's share of the evidence: a prompt snapshot's system prompt and tool definitions
 * (field names are not documented: strings under a key naming tools count as tool definitions), and
 * the deferred-tools list with its pending servers.
 */
export function collectEvidence(ev: ChainEvidence, rec: AnyRecord, known: Set<string>): void {
  if (rec.kind === "meta" && rec.type === "prompt_snapshot") return snapshot(ev, rec.raw, known);
  if (rec.kind !== "attachment") return;
  if (rec.attachmentType === "prompt_snapshot") return snapshot(ev, rec.attachment, known);
  if (rec.attachmentType !== "deferred_tools_delta") return;
  const a = rec.attachment;
  for (const n of arr(a.addedNames) ?? []) {
    const m = typeof n === "string" ? MCP_TOOL.exec(n) : null;
    if (m) known.add(m[1]!);
  }
  const texts: string[] = [];
  walk(a, "", 0, (_path, s) => texts.push(s));
  keep(ev, "deferred-tools", texts.join("\n"));
  const servers = new Set<string>();
  const sources: string[] = [];
  for (const x of arr(a.pendingMcpServers) ?? []) {
    const name = typeof x === "string" ? x : isObject(x) && typeof x.name === "string" ? x.name : null;
    if (name !== null) servers.add(name);
  }
  if (servers.size > 0) sources.push("pendingMcpServers");
  for (const t of texts) {
    const m = STILL_CONNECTING.exec(t);
    if (!m) continue;
    const named = m[1]!
      .split("\n")
      .map((l) => l.replace(/^\s*[-*•]\s*/, "").trim())
      .filter((l) => l !== "" && !l.startsWith("</"));
    for (const n of named) servers.add(n);
    if (named.length > 0 && !sources.includes("still-connecting note")) sources.push("still-connecting note");
  }
  if (servers.size > 0) ev.pendingNotes.push({ file: rec.pos.file, line: rec.pos.line, servers: [...servers], sources });
}

function snapshot(ev: ChainEvidence, o: Record<string, unknown>, known: Set<string>): void {
  const sys: string[] = [];
  const tools: string[] = [];
  walk(o, "", 0, (path, s) => {
    const tool = /tool/i.test(path);
    (tool ? tools : sys).push(s);
    // A tool definition's name `mcp__<server>__…` names a server (with tool search off there is no deferred-tools list).
    const m = tool && path.endsWith(".name") ? MCP_TOOL.exec(s) : null;
    if (m) known.add(m[1]!);
  });
  keep(ev, "system-prompt", sys.join("\n"));
  keep(ev, "tool-definitions", tools.join("\n"));
}

function keep(ev: ChainEvidence, place: Place, text: string): void {
  if (text === "" || ev.seen.has(text)) return;
  if (ev.chars + text.length > MAX_EVIDENCE_CHARS) {
    ev.overflow.add(place);
    return;
  }
  ev.seen.add(text);
  ev.chars += text.length;
  ev.texts[place].push(text);
}

const SKIP_KEYS: ReadonlySet<string> = new Set([
  "type",
  "uuid",
  "parentUuid",
  "sessionId",
  "session_id",
  "timestamp",
  "cwd",
  "version",
  "gitBranch",
  "userType",
  "entrypoint",
  "slug",
]);

function walk(v: unknown, path: string, depth: number, f: (path: string, s: string) => void): void {
  if (depth > 10) return;
  if (typeof v === "string") f(path, v);
  else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`, depth + 1, f));
  else if (isObject(v)) for (const k in v) if (!SKIP_KEYS.has(k)) walk(v[k], path ? `${path}.${k}` : k, depth + 1, f);
}

/** Whether a place holds the needle: true / false, or null when the chain has no evidence for that place. */
export function appearsIn(ev: ChainEvidence | undefined, place: Place, needles: string[]): boolean | null {
  if (!ev || ev.overflow.has(place)) return null;
  const texts = ev.texts[place];
  if (texts.length === 0) return null;
  return texts.some((t) => needles.some((n) => n !== "" && t.includes(n)));
}
