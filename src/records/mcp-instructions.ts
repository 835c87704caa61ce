import { MCP_INSTRUCTIONS_HEADING, MCP_INSTRUCTIONS_REMOVED, REMINDER_CLOSE } from "./attachments.js";
import { codePoints, utf8Bytes } from "./content.js";

/** Appended by Claude Code after the first 2,048 chars of a too-long text: U+2026, space, `[truncated]` — 13 chars (FORMATS.md 2.2). */
export const TRUNCATION_MARKER = "… [truncated]";

/** Where a block starts: `## <server>\n` (FORMATS.md 5.1). */
const BLOCK_HEAD = /^## ([^\n]+)\n/;

export interface InstructionBlock {
  server: string;
  /** The server's text as delivered (truncation marker included). */
  text: string;
  /** The whole block, `## <server>\n<text>`. */
  block: string;
  /** false when the block did not start with `## <server>\n` and the name came from elsewhere. */
  headed: boolean;
  /** Where this block's bounds rest on a line that may be a server's own (a rendered section's blocks only). */
  uncertain?: Uncertain;
}

/**
 * Why a rendered block's size may be wrong, and the line it rests on (`# Notes`, `# Environment`, `## docs`):
 * - `unknown-heading`: the last server's text was read to the end of the system block past a top-level heading
 *   no Claude Code section has; it may end before it.
 * - `section-heading`: its text was ended at a heading a Claude Code section has (`# Environment`), which the
 *   server's own text may hold; it may go on past it.
 * - `past-section-heading`: its text was read past such a heading, taken for the server's own line (that
 *   section stood before the MCP section already, or a later section ends the text); it may end before it.
 * - `server-heading`: a `## <name>` line of a known server opens a block, but that name heads more than one
 *   such line in the section and no sent text says which is the block's: the server before it may be cut short
 *   there, and the named server's block may hold the other's text.
 */
export interface Uncertain {
  heading: string;
  why: "unknown-heading" | "section-heading" | "past-section-heading" | "server-heading";
}

/**
 * One entry of `addedBlocks`: `## <server>\n<text>`. `name` is the parallel `addedNames` entry; it wins
 * over the heading, since display names may themselves contain anything.
 */
export function parseBlock(block: string, name?: string): InstructionBlock {
  if (name !== undefined && block.startsWith(`## ${name}\n`))
    return { server: name, text: block.slice(name.length + 4), block, headed: true };
  const m = BLOCK_HEAD.exec(block);
  if (m && name === undefined) return { server: m[1]!, text: block.slice(m[0].length), block, headed: true };
  return { server: name ?? "(unnamed)", text: block, block, headed: false };
}

export interface TextSize {
  chars: number;
  codePoints: number;
  utf8Bytes: number;
  truncated: boolean;
  /** Before the marker; null when not truncated. */
  keptChars: number | null;
  keptCodePoints: number | null;
  keptUtf8Bytes: number | null;
  /** The cut split a surrogate pair: the kept text ends in a lone high surrogate (FORMATS.md 5.1). */
  splitSurrogate: boolean;
}

/** Sizes of a delivered text in the three units of the write-up; the cap counts `chars` (JS length). */
export function measureText(text: string): TextSize {
  const truncated = text.endsWith(TRUNCATION_MARKER);
  const kept = truncated ? text.slice(0, text.length - TRUNCATION_MARKER.length) : null;
  const lastUnit = kept !== null && kept.length > 0 ? kept.charCodeAt(kept.length - 1) : 0;
  return {
    chars: text.length,
    codePoints: codePoints(text),
    utf8Bytes: utf8Bytes(text),
    truncated,
    keptChars: kept === null ? null : kept.length,
    keptCodePoints: kept === null ? null : codePoints(kept),
    keptUtf8Bytes: kept === null ? null : utf8Bytes(kept),
    splitSurrogate: lastUnit >= 0xd800 && lastUnit <= 0xdbff,
  };
}

/**
 * How the section's end was found: the reminder's close; in a system prompt the end of the last server's
 * sent text (a message log's), the next section Claude Code puts there, or the end of the searched text.
 */
export type SectionEnd = "reminder" | "sent-text" | "next-section" | "text-end";

export interface RenderedSection {
  /** Offset of the heading (or of the removal notice) in the searched text. */
  at: number;
  blocks: InstructionBlock[];
  removed: string[];
  /** The section as it stands in the text: from the heading to the end of its blocks. */
  section: string;
  /** The `<system-reminder>` that holds the section, when there is one: the characters the model saw. */
  reminder: string | null;
  end: SectionEnd;
  /**
   * The last server's text has no certain end (a system prompt, no sent text): the line it rests on and why
   * (`Uncertain`), e.g. it ran to the end of the text past a top-level heading no Claude Code section has
   * (`# Notes`). Null otherwise.
   */
  uncertainHeading: string | null;
  uncertainWhy: Uncertain["why"] | null;
}

/** The texts a server sent (a message log's initialize/discover results), newest first; none when unknown. */
export type SentTexts = (server: string) => readonly string[];
const NO_SENT: SentTexts = () => [];

/**
 * What Claude Code puts after the `# MCP Server Instructions` section of a system prompt `[CC 2.1.88]`: the
 * dynamic sections that follow `mcp_instructions` (`# Scratchpad Directory`, `# Function Result Clearing`,
 * the tool-results paragraph), the system context appended last (`gitStatus: …`), and its other dynamic sections' headings (`# Environment`, `# Language`,
 * `# Output Style: <name>`), which sit before it there and may follow it in other layouts. Each opens
 * after a blank line; a top-level heading of any other name may be a server's own markdown.
 */
const NEXT_SECTION =
  /\n\n(?:# (?:Environment|Language|Scratchpad Directory|Function Result Clearing)(?:\n|$)|# Output Style: [^\n]*(?:\n|$)|When working with tool results, write down any important information|gitStatus: This is the git status at the start of the conversation)/g;

/**
 * The `# MCP Server Instructions` section inside a larger text (a `<system-reminder>` in a user
 * record, a system prompt). The first block opens at `## <name>\n`; later ones only at `\n\n## <name>\n`
 * for a name in `knownNames`, since instruction texts may carry their own `## ` headings. The section ends at the
 * reminder's close, at the removal notice, or (in a system prompt) where the last server's text ends: see `promptEnd`.
 */
export function findRenderedSection(
  text: string,
  knownNames: ReadonlySet<string> = new Set(),
  sent: SentTexts = NO_SENT,
): RenderedSection | undefined {
  const h = text.indexOf(MCP_INSTRUCTIONS_HEADING.trimEnd());
  const r = text.indexOf(MCP_INSTRUCTIONS_REMOVED);
  if (h < 0 && r < 0) return undefined;
  const at = h >= 0 && (r < 0 || h < r) ? h : r;
  const open = text.lastIndexOf("<system-reminder>", at);
  const firstClose = text.indexOf(REMINDER_CLOSE, at);
  const closeAt = firstClose >= 0 ? reminderEnd(text, at, firstClose, knownNames, sent) : firstClose;
  const inReminder = open >= 0 && closeAt >= 0 && !text.slice(open, at).includes("</system-reminder>");
  const found: PromptEnd = inReminder ? { end: closeAt, how: "reminder", uncertain: null } : promptEnd(text, at, knownNames, sent);
  const end = found.end;
  const section = text.slice(at, end);
  const reminder = inReminder ? text.slice(open, closeAt + REMINDER_CLOSE.length) : null;
  let body = section;
  let removed: string[] = [];
  const rm = body.indexOf(MCP_INSTRUCTIONS_REMOVED);
  if (rm >= 0) {
    removed = body
      .slice(rm + MCP_INSTRUCTIONS_REMOVED.length)
      .split("\n")
      .map((s) => s.trim())
      .filter(Boolean);
    body = body.slice(0, rm).replace(/\n\n$/, "");
  }
  const blocks = body.startsWith(MCP_INSTRUCTIONS_HEADING)
    ? splitBlocks(body.slice(MCP_INSTRUCTIONS_HEADING.length), knownNames, sent)
    : [];
  const u = found.uncertain;
  return { at, blocks, removed, section, reminder, end: found.how, uncertainHeading: u?.heading ?? null, uncertainWhy: u?.why ?? null };
}

/**
 * Where a reminder's section ends: at the first `\n</system-reminder>` after the heading, unless the last
 * server's text, as a message log has it, holds that line itself. Then the section ends at the close that
 * follows the whole sent text (or its cut prefix and the marker). Without a sent text the first close stands.
 */
function reminderEnd(text: string, at: number, firstClose: number, known: ReadonlySet<string>, sent: SentTexts): number {
  if (!text.startsWith(MCP_INSTRUCTIONS_HEADING, at)) return firstClose;
  const bodyAt = at + MCP_INSTRUCTIONS_HEADING.length;
  for (let c = firstClose; c >= 0; c = text.indexOf(REMINDER_CLOSE, c + 1)) {
    const body = text.slice(bodyAt, c);
    const last = blockStarts(body, known, sent).at(-1);
    if (!last) return firstClose;
    const textAt = last.at + last.name.length + 4;
    if (sent(last.name).some((s) => sentEnd(body, textAt, s) === body.length)) return c;
  }
  return firstClose;
}

/** Where a section ends, how that was found, and what makes the end uncertain. */
interface PromptEnd {
  end: number;
  how: SectionEnd;
  uncertain: Uncertain | null;
}

/** The sections of NEXT_SECTION that 2.1.88 puts before the MCP section: one found after it may be a server's own heading. */
const BEFORE_MCP = /^\n\n# (?:Environment|Language|Output Style: )/;

/**
 * Where the section ends in a system prompt, which has no close of its own. The last server's text may
 * hold top-level headings of its own (`\n\n# Notes\n…`), so no `# ` line ends it by itself:
 * 1. the server's sent text, when known, matched at its block's start (whole, or its first chars and the
 *    truncation marker);
 * 2. else the first section Claude Code puts after it (`NEXT_SECTION`), searched from the last block on. Claude
 *    Code writes each section once, and 2.1.88 writes `# Environment`, `# Language` and `# Output Style` before
 *    the MCP section: such a heading, or one that stands again later, may be the server's own line, so the end
 *    there is uncertain (`section-heading`), and a later section that is not in doubt wins (read past:
 *    `past-section-heading`). One that stood before the MCP section already is the server's own: read past;
 * 3. else the end of the text (one system block), uncertain when an unknown `# ` heading was read into it.
 */
function promptEnd(text: string, at: number, known: ReadonlySet<string>, sent: SentTexts): PromptEnd {
  let from = at + 2;
  if (text.startsWith(MCP_INSTRUCTIONS_HEADING, at)) {
    const bodyAt = at + MCP_INSTRUCTIONS_HEADING.length;
    const last = blockStarts(text.slice(bodyAt), known, sent).at(-1);
    if (last) {
      from = bodyAt + last.at;
      const textAt = from + last.name.length + 4;
      for (const s of sent(last.name)) {
        const e = sentEnd(text, textAt, s);
        if (e !== null) return { end: e, how: "sent-text", uncertain: null };
      }
    }
  }
  const next = new RegExp(NEXT_SECTION.source, "g");
  next.lastIndex = from;
  // Headings read past so far (in text order), and the first whose section is in doubt (the end if no later one is sure).
  let past: string | null = null;
  let doubt: { end: number; heading: string } | null = null;
  for (let m = next.exec(text); m; m = next.exec(text)) {
    const heading = lineAt(text, m.index + 2);
    const before = text.lastIndexOf(m[0], at);
    if (before >= 0 && before < at) {
      if (doubt === null) past ??= heading;
      continue;
    }
    const sure = !BEFORE_MCP.test(m[0]) && text.indexOf(m[0], m.index + 1) < 0;
    if (sure) {
      const first = past ?? doubt?.heading ?? null;
      return { end: m.index, how: "next-section", uncertain: first === null ? null : { heading: first, why: "past-section-heading" } };
    }
    doubt ??= { end: m.index, heading };
  }
  if (doubt)
    return {
      end: doubt.end,
      how: "next-section",
      uncertain: past !== null ? { heading: past, why: "past-section-heading" } : { heading: doubt.heading, why: "section-heading" },
    };
  if (past !== null) return { end: text.length, how: "text-end", uncertain: { heading: past, why: "past-section-heading" } };
  const other = text.indexOf("\n\n# ", from);
  if (other < 0) return { end: text.length, how: "text-end", uncertain: null };
  return { end: text.length, how: "text-end", uncertain: { heading: lineAt(text, other + 2), why: "unknown-heading" } };
}

/** The line that starts at `i`, cut at 200 chars. */
function lineAt(text: string, i: number): string {
  const lineEnd = text.indexOf("\n", i);
  const line = text.slice(i, lineEnd < 0 ? text.length : lineEnd);
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/**
 * Where a server's delivered text that opens at `i` ends, if it is `sent` as delivered: the whole sent text,
 * or its first chars and the truncation marker (2,048 by default; the cap is configurable). The text must
 * stop there (its end, or a blank line); null when it is not the sent text.
 */
function sentEnd(text: string, i: number, sent: string): number | null {
  // Sections and blocks are joined by a blank line; a line break alone would leave the text going on.
  const stops = (e: number) => e >= text.length || text.startsWith("\n\n", e) || text.trimEnd().length <= e;
  if (sent.length > 0 && text.startsWith(sent, i) && stops(i + sent.length)) return i + sent.length;
  const n = Math.min(sent.length, text.length - i);
  let k = 0;
  while (k < n && text.charCodeAt(i + k) === sent.charCodeAt(k)) k++;
  // The marker may itself begin like the sent text's next chars: try the few places before the first difference.
  for (let j = k; j >= 0 && j >= k - TRUNCATION_MARKER.length; j--) {
    if (j < sent.length && text.startsWith(TRUNCATION_MARKER, i + j) && stops(i + j + TRUNCATION_MARKER.length))
      return i + j + TRUNCATION_MARKER.length;
  }
  return null;
}

/** Where a rendered section may start a server's block: `## <name>` after a blank line (FORMATS.md 5.1). */
const HEADING = /(?:^|\n\n)## ([^\n]{1,200})\n/g;

/** The `## ` heading lines of a server's text that stand as a block would: its own markdown, kept inside it. */
export function headingsIn(text: string): string[] {
  return [...text.matchAll(HEADING)].map((m) => m[1]!);
}

/**
 * Where each server's block opens in a section's body (after the heading): at `## <name>`. The body always
 * opens with a block; a later `## ` line starts one only under a server name the session knows (addedNames,
 * mcp__ tool names, the logs). With none known it stays in the text: a server's own `## Usage` must not
 * become a phantom server and cut the real one short. A name opens one block per section: when its sent
 * text is known, at the first `## <name>` that the sent text (or its cut prefix) follows, else at its first
 * `## <name>`; its other such lines stay in the text before them (a server's own section about another).
 */
function blockStarts(body: string, known: ReadonlySet<string>, sent: SentTexts = NO_SENT): BlockStart[] {
  const byName = new Map<string, Array<{ at: number; name: string }>>();
  const head = new RegExp(HEADING.source, "g");
  for (let m = head.exec(body); m; m = head.exec(body)) {
    const name = m[1]!;
    if (m.index > 0 && !known.has(name)) continue;
    const start = { at: m.index + (m[0].startsWith("\n\n") ? 2 : 0), name };
    const list = byName.get(name);
    if (list) list.push(start);
    else byName.set(name, [start]);
  }
  const starts: BlockStart[] = [];
  for (const [name, list] of byName) {
    const texts = list[0]!.at === 0 ? [] : sent(name);
    const matching = list.find((c) => texts.some((s) => sentEnd(body, c.at + name.length + 4, s) !== null));
    // Several `## <name>` lines and no sent text to tell which opens the block: the first does, in doubt.
    starts.push(matching ?? (list[0]!.at > 0 && list.length > 1 ? { ...list[0]!, doubt: true } : list[0]!));
  }
  return starts.sort((a, b) => a.at - b.at);
}

interface BlockStart {
  at: number;
  name: string;
  /** One of several `## <name>` lines, taken with no sent text to say it is the block's. */
  doubt?: true;
}

function splitBlocks(body: string, known: ReadonlySet<string>, sent: SentTexts): InstructionBlock[] {
  const starts = blockStarts(body, known, sent);
  return starts.map((s, i) => {
    const next = starts[i + 1];
    const stop = next ? next.at - 2 : body.length;
    const b = parseBlock(body.slice(s.at, stop), s.name);
    // A start in doubt moves two sizes: the block it opens, and the one it cuts short.
    const at = s.doubt ? s : next?.doubt ? next : undefined;
    if (at) b.uncertain = { heading: `## ${at.name}`, why: "server-heading" };
    return b;
  });
}
