import { renderAttachment } from "../records/attachments.js";
import { visiblePieces, visibleText } from "../records/content.js";
import { isStringAt, lazyOf } from "../records/lazy-strings.js";
import { mayContain } from "../records/string-bytes.js";
import { arr, isObject, type JsonObject } from "../records/json.js";
import {
  findRenderedSection,
  headingsIn,
  parseBlock,
  type InstructionBlock,
  type SectionEnd,
  type SentTexts,
  type Uncertain,
} from "../records/mcp-instructions.js";
import type { AssistantRecord, Envelope, UserRecord } from "../records/transcript.js";
import type { Analysis } from "./analysis.js";
import { collectEvidence, emptyEvidence, type ChainEvidence } from "./instructions-evidence.js";

export type Carrier = "mcp_instructions_delta" | "system-reminder" | "system-prompt";

/** Where a delivery stands among the records sent with the same request (FORMATS.md 2.2: after the prompt, deferred tools and agent listing, before the skill listing). */
export interface ChainPosition {
  /** What opened the group: `prompt`, `tool-result`, … or null when attachments came first. */
  anchor: string | null;
  /** 1-based place among the group's items, and the group's size. */
  index: number;
  of: number;
  before: string[];
  after: string[];
}

/** One server's text (or removal) as one carrier held it, before the join with requests and logs. */
export interface Sighting {
  chain: string;
  /** The carrier record's uuid: a resume or fork copies the record with it, so a fleet pass counts it once. */
  uuid: string | null;
  file: string;
  line: number;
  timestamp: string | null;
  carrier: Carrier;
  /** The record part that held it: `attachment`, `user-text`, `tool-result`, `prompt_snapshot`, `attachment:<kind>`. */
  where: string;
  server: string;
  /** The text as delivered; null for a removal. */
  text: string | null;
  block: string | null;
  removed: boolean;
  /** false when a block lacked its `## <server>` heading. */
  headed: boolean;
  serversInCarrier: string[];
  /** The characters the model saw for the whole carrier (wrapper included), and how they were obtained. */
  renderedChars: number | null;
  renderedSource: "stored" | "rendered" | "found" | null;
  /** A stored rendering that does not contain the block (the record disagrees with itself). */
  renderedDisagrees: boolean;
  position: ChainPosition | null;
  /** `## ` lines of the text that were kept inside it as the server's own markdown. */
  innerHeadings: string[];
  /** How the rendered section that held it was found to end; null for a delta (its blocks are given). */
  sectionEnd: SectionEnd | null;
  /**
   * The line this text's size rests on when its bounds are uncertain (records/mcp-instructions.ts `Uncertain`):
   * the last server of a system-prompt section read to the end past a top-level heading no Claude Code section
   * has (`# Notes`), or ended at one a Claude Code section has (`# Environment`), or a `## <server>` line in
   * doubt. Null otherwise.
   */
  uncertainHeading: string | null;
  /** Why (`Uncertain["why"]`); null when certain. */
  uncertainWhy: Uncertain["why"] | null;
  /** For a section found in a larger text: that text, so the blocks can be split again once more server names are known. */
  section: FoundSection | null;
}

/** A rendered section as found: the text searched and the names it was split with. */
export interface FoundSection {
  text: string;
  names: ReadonlySet<string>;
  /** Outside a `<system-reminder>` (a system prompt): its end rests on the last server's text, so a sent text may move it. */
  open?: boolean;
}

export interface FinalAnswer {
  chain: string;
  file: string;
  line: number;
  messageId: string | null;
  text: string;
}

export interface InstructionsScan {
  sightings: Sighting[];
  evidence: Map<string, ChainEvidence>;
  /** Last assistant text per chain: the answer the write-up compares with what was delivered. */
  answers: Map<string, FinalAnswer>;
  /** Server names met anywhere (addedNames, mcp__ tool names), used to split rendered sections. */
  knownNames: string[];
}

interface Group {
  items: string[];
  open: Array<{ s: Sighting; index: number }>;
}

interface State {
  sightings: Sighting[];
  groups: Map<string, Group>;
  evidence: Map<string, ChainEvidence>;
  answers: Map<string, FinalAnswer>;
  known: Set<string>;
}

/** The fields each server of a carrier has for itself. */
type Own =
  | "server"
  | "text"
  | "block"
  | "removed"
  | "headed"
  | "serversInCarrier"
  | "innerHeadings"
  | "section"
  | "sectionEnd"
  | "uncertainHeading"
  | "uncertainWhy";

const MCP_TOOL = /^mcp__(.+?)__/;
/** Group items that come from user records; attachments are named by their kind. */
const USER_ITEMS: ReadonlySet<string> = new Set(["prompt", "tool-result", "meta-text"]);

/**
 * Collects every MCP-instructions delivery of a transcript in one pass: `mcp_instructions_delta`
 * attachments, rendered `# MCP Server Instructions` sections in user text, other attachments and
 * prompt snapshots; plus the evidence to say where the text is absent, and the final answer.
 */
export const instructionsAnalysis: Analysis<State, InstructionsScan> = {
  init: () => ({ sightings: [], groups: new Map(), evidence: new Map(), answers: new Map(), known: new Set() }),
  step(s, rec) {
    if (rec.kind === "malformed") return;
    let ev = s.evidence.get(rec.chain);
    if (!ev) s.evidence.set(rec.chain, (ev = emptyEvidence()));
    collectEvidence(ev, rec, s.known);
    switch (rec.kind) {
      case "assistant":
        closeGroup(s, rec.chain);
        onAssistant(s, rec);
        return;
      case "attachment":
        if (rec.attachmentType === "prompt_snapshot") return scanStrings(s, rec, rec.attachment, "system-prompt", "prompt_snapshot", false);
        if (rec.attachmentType === "mcp_instructions_delta") return onDelta(s, rec, rec.attachment);
        addItem(s, rec.chain, rec.attachmentType);
        return scanStrings(s, rec, rec.attachment, "system-reminder", `attachment:${rec.attachmentType}`, true);
      case "user":
        return onUser(s, rec);
      case "meta":
        if (rec.type === "prompt_snapshot") scanStrings(s, rec, rec.raw, "system-prompt", "prompt_snapshot", false);
        return;
      default:
        return;
    }
  },
  finish(s) {
    for (const chain of s.groups.keys()) closeGroup(s, chain);
    // Names met after a section (a later tool call, a snapshot's tool definitions) split it as well.
    return resplitSections({ sightings: s.sightings, evidence: s.evidence, answers: s.answers, knownNames: [...s.known].sort() });
  },
};

function group(s: State, chain: string): Group {
  let g = s.groups.get(chain);
  if (!g) s.groups.set(chain, (g = { items: [], open: [] }));
  return g;
}

function addItem(s: State, chain: string, kind: string): number {
  const g = group(s, chain);
  g.items.push(kind);
  return g.items.length - 1;
}

/** An assistant record ends the group: every record before it went out with the request it belongs to. */
function closeGroup(s: State, chain: string): void {
  const g = s.groups.get(chain);
  if (!g) return;
  const anchor = g.items.find((k) => USER_ITEMS.has(k)) ?? null;
  for (const { s: sight, index } of g.open) {
    sight.position = { anchor, index: index + 1, of: g.items.length, before: g.items.slice(0, index), after: g.items.slice(index + 1) };
  }
  s.groups.delete(chain);
}

function base(rec: Envelope, carrier: Carrier, where: string): Omit<Sighting, Own> {
  return {
    chain: rec.chain,
    uuid: rec.uuid ?? null,
    file: rec.pos.file,
    line: rec.pos.line,
    timestamp: rec.timestamp ?? null,
    carrier,
    where,
    renderedChars: null,
    renderedSource: null,
    renderedDisagrees: false,
    position: null,
  };
}

function onDelta(s: State, rec: Envelope, a: JsonObject): void {
  const index = addItem(s, rec.chain, "mcp_instructions_delta");
  const names = strings(a.addedNames);
  const blocks = (arr(a.addedBlocks) ?? [])
    .map((b, i) => (typeof b === "string" ? parseBlock(b, names[i]) : undefined))
    .filter((b): b is InstructionBlock => b !== undefined);
  const removed = strings(a.removedNames);
  const r = renderAttachment(a, rec.raw);
  const all = [...blocks.map((b) => b.server), ...removed];
  for (const n of all) s.known.add(n);
  const common = {
    ...base(rec, "mcp_instructions_delta", "attachment"),
    serversInCarrier: all,
    renderedChars: r.text.length,
    renderedSource: r.source === "stored" ? "stored" : "rendered",
  } as const;
  const g = group(s, rec.chain);
  for (const b of blocks) {
    const sight: Sighting = {
      ...common,
      server: b.server,
      text: b.text,
      block: b.block,
      removed: false,
      headed: b.headed,
      renderedDisagrees: r.source === "stored" && !r.text.includes(b.block),
      innerHeadings: headingsIn(b.text),
      sectionEnd: null,
      uncertainHeading: null,
      uncertainWhy: null,
      section: null,
    };
    s.sightings.push(sight);
    g.open.push({ s: sight, index });
  }
  for (const name of removed) {
    const sight: Sighting = {
      ...common,
      server: name,
      text: null,
      block: null,
      removed: true,
      headed: true,
      innerHeadings: [],
      sectionEnd: null,
      uncertainHeading: null,
      uncertainWhy: null,
      section: null,
    };
    s.sightings.push(sight);
    g.open.push({ s: sight, index });
  }
}

function onUser(s: State, rec: UserRecord): void {
  const c = rec.content;
  // The holder and key of each text, read only when it may hold a section.
  const parts: Array<{ at: object; key: string; where: string }> = [];
  if (isStringAt(rec, "content")) parts.push({ at: rec, key: "content", where: "user-text" });
  for (const b of Array.isArray(c) ? c : []) {
    if (b.type === "text" && isStringAt(b, "text")) parts.push({ at: b, key: "text", where: "user-text" });
    else if (b.type === "tool_result") parts.push({ at: b, key: "content", where: "tool-result" });
  }
  const kind = parts.some((p) => p.where === "tool-result") ? "tool-result" : rec.isMeta ? "meta-text" : "prompt";
  const index = addItem(s, rec.chain, kind);
  for (const p of parts) {
    const text = sectionCandidate(p.at, p.key);
    if (text !== null) found(s, rec, text, "system-reminder", p.where, index);
  }
}

/** Both openings of a rendered section (MCP_INSTRUCTIONS_HEADING, _REMOVED) contain this. */
const SECTION_MARK = "MCP ";

/** `visibleText(at[key])`, or null when its bytes show it cannot hold a rendered section (most tool outputs). */
function sectionCandidate(at: object, key: string): string | null {
  const pieces = visiblePieces(at, key);
  const one = pieces.length === 1 ? lazyOf(pieces[0]![0], pieces[0]![1]) : undefined;
  if (one && !mayContain(one, SECTION_MARK)) return null;
  const text = visibleText((at as Record<string, unknown>)[key]);
  return one || mayHoldSection(text) ? text : null;
}

/**
 * Whether a decoded text may hold a rendered section: without the mark findRenderedSection searches it
 * for both openings (and trims the heading) only to find neither. Most user texts and short tool results
 * end here (report on the bench file: instructions' step ~30% less).
 */
export const mayHoldSection = (text: string): boolean => text.includes(SECTION_MARK);

/** Any string under a record part that holds a rendered section (a future attachment kind, a snapshot's system prompt). */
function scanStrings(s: State, rec: Envelope, v: unknown, carrier: Carrier, where: string, inGroup: boolean): void {
  const index = inGroup ? group(s, rec.chain).items.length - 1 : -1;
  walk(v, 0, (str) => found(s, rec, str, carrier, where, index));
}

function walk(v: unknown, depth: number, f: (s: string) => void): void {
  if (depth > 8) return;
  if (typeof v === "string") {
    if (v.includes("MCP Server") || v.includes("MCP servers have disconnected")) f(v);
  } else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1, f);
  else if (isObject(v)) for (const k in v) walk(v[k], depth + 1, f);
}

function found(s: State, rec: Envelope, text: string, carrier: Carrier, where: string, index: number): void {
  const names = new Set(s.known);
  const sec = findRenderedSection(text, names);
  // Outside a system prompt the section counts only inside a closed <system-reminder>: a prompt or a
  // tool result quoting the heading (say, `cat FORMATS.md`) is not a delivery.
  if (!sec || (carrier === "system-reminder" && sec.reminder === null)) return;
  const shown = carrier === "system-prompt" ? sec.section : (sec.reminder ?? sec.section);
  const made = sectionSightings(
    sec,
    { ...base(rec, carrier, where), renderedChars: shown.length, renderedSource: "found" },
    { text, names, open: sec.reminder === null },
  );
  for (const sight of made) {
    s.sightings.push(sight);
    if (index >= 0) group(s, rec.chain).open.push({ s: sight, index });
  }
}

type SectionCommon = Omit<Sighting, Own>;

function sectionSightings(
  sec: NonNullable<ReturnType<typeof findRenderedSection>>,
  common: SectionCommon,
  found: FoundSection,
): Sighting[] {
  const all = [...sec.blocks.map((b) => b.server), ...sec.removed];
  const c = { ...common, serversInCarrier: all, section: found, sectionEnd: sec.end, uncertainHeading: null, uncertainWhy: null };
  return [
    ...sec.blocks.map((b, i) => {
      // Only the last server's text runs on to the section's end; a `## <server>` line in doubt moves any block.
      const last = i === sec.blocks.length - 1 && sec.uncertainHeading !== null && sec.uncertainWhy !== null;
      const u = b.uncertain ?? (last ? { heading: sec.uncertainHeading!, why: sec.uncertainWhy! } : null);
      return {
        ...c,
        server: b.server,
        text: b.text,
        block: b.block,
        removed: false,
        headed: b.headed,
        innerHeadings: headingsIn(b.text),
        uncertainHeading: u?.heading ?? null,
        uncertainWhy: u?.why ?? null,
      };
    }),
    ...sec.removed.map((name) => ({ ...c, server: name, text: null, block: null, removed: true, headed: true, innerHeadings: [] })),
  ];
}

/**
 * Splits each found section again with every server name known by the end (a name learned after the
 * section, or from the debug log, init event and message logs): a `## <name>` line starts a server's
 * block only under a name the session knows. With `sent` (the message logs' texts) every section is cut
 * again: a name's block opens where its sent text follows, and the section ends where the last server's
 * sent text does (a system prompt's, or a reminder's whose text holds a close line). Sightings from deltas, and sections
 * whose split does not change, are kept as they are (position included).
 */
export function resplitSections(scan: InstructionsScan, extra: Iterable<string> = [], sent?: SentTexts): InstructionsScan {
  const names = new Set([...scan.knownNames, ...extra]);
  let changed = false;
  const out: Sighting[] = [];
  const done = new Set<FoundSection>();
  for (const sight of scan.sightings) {
    const f = sight.section;
    if (f === null || ([...names].every((n) => f.names.has(n)) && !sent)) {
      out.push(sight);
      continue;
    }
    if (done.has(f)) continue;
    done.add(f);
    const sec = findRenderedSection(f.text, names, sent)!;
    const {
      server: _s,
      text: _t,
      block: _b,
      removed: _r,
      headed: _h,
      serversInCarrier: _a,
      innerHeadings: _i,
      section: _f,
      sectionEnd: _e,
      uncertainHeading: _u,
      uncertainWhy: _w,
      ...common
    } = sight;
    // A system prompt's section is what the model saw of it: its length moves with its end.
    // So is a reminder's, when a sent text holding `\n</system-reminder>` moved its close.
    common.renderedChars = (common.carrier === "system-prompt" || sec.reminder === null ? sec.section : sec.reminder).length;
    const again = sectionSightings(sec, common, { text: f.text, names, open: f.open });
    changed = true;
    out.push(...again);
  }
  return changed ? { ...scan, sightings: out, knownNames: [...names].sort() } : scan;
}

function onAssistant(s: State, rec: AssistantRecord): void {
  let text = "";
  for (const b of rec.content) {
    if (b.type === "text" && typeof b.text === "string") text += b.text;
    if (b.type === "tool_use" && typeof b.name === "string") {
      const m = MCP_TOOL.exec(b.name);
      if (m) s.known.add(m[1]!);
    }
  }
  if (text === "" || rec.model === "<synthetic>" || rec.isApiError) return;
  const prev = s.answers.get(rec.chain);
  const id = rec.messageId ?? null;
  // One response is split over several records: join the text blocks of the same message.
  if (prev && id !== null && prev.messageId === id) prev.text += text;
  else s.answers.set(rec.chain, { chain: rec.chain, file: rec.pos.file, line: rec.pos.line, messageId: id, text });
}

function strings(v: unknown): string[] {
  return (arr(v) ?? []).filter((x): x is string => typeof x === "string");
}
