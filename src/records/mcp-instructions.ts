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
   * The section ran to the end of the text past a top-level heading no Claude Code section has (`# Notes`):
   * that heading's line, kept in the last server's text, which may or may not end before it. Null otherwise.
   */
  uncertainHeading: string | null;
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
  const found: { end: number; how: SectionEnd; uncertainHeading: string | null } = inReminder
    ? { end: closeAt, how: "reminder", uncertainHeading: null }
    : promptEnd(text, at, knownNames, sent);
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
  return { at, blocks, removed, section, reminder, end: found.how, uncertainHeading: found.uncertainHeading };
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

/**
 * Where the section ends in a system prompt, which has no close of its own. The last server's text may
 * hold top-level headings of its own (`\n\n# Notes\n…`), so no `# ` line ends it by itself:
 * 1. the server's sent text, when known, matched at its block's start (whole, or its first chars and the
 *    truncation marker);
 * 2. else the first section Claude Code puts after it (`NEXT_SECTION`), searched from the last block on;
 * 3. else the end of the text (one system block), uncertain when an unknown `# ` heading was read into it.
 */
function promptEnd(
  text: string,
  at: number,
  known: ReadonlySet<string>,
  sent: SentTexts,
): { end: number; how: SectionEnd; uncertainHeading: string | null } {
  let from = at + 2;
  if (text.startsWith(MCP_INSTRUCTIONS_HEADING, at)) {
    const bodyAt = at + MCP_INSTRUCTIONS_HEADING.length;
    const last = blockStarts(text.slice(bodyAt), known, sent).at(-1);
    if (last) {
      from = bodyAt + last.at;
      const textAt = from + last.name.length + 4;
      for (const s of sent(last.name)) {
        const e = sentEnd(text, textAt, s);
        if (e !== null) return { end: e, how: "sent-text", uncertainHeading: null };
      }
    }
  }
  const next = new RegExp(NEXT_SECTION.source, "g");
  next.lastIndex = from;
  const m = next.exec(text);
  if (m) return { end: m.index, how: "next-section", uncertainHeading: null };
  const other = text.indexOf("\n\n# ", from);
  if (other < 0) return { end: text.length, how: "text-end", uncertainHeading: null };
  const lineEnd = text.indexOf("\n", other + 2);
  const line = text.slice(other + 2, lineEnd < 0 ? text.length : lineEnd);
  return { end: text.length, how: "text-end", uncertainHeading: line.length > 200 ? `${line.slice(0, 200)}…` : line };
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
function blockStarts(body: string, known: ReadonlySet<string>, sent: SentTexts = NO_SENT): Array<{ at: number; name: string }> {
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
  const starts: Array<{ at: number; name: string }> = [];
  for (const [name, list] of byName) {
    const texts = list[0]!.at === 0 ? [] : sent(name);
    const matching = list.find((c) => texts.some((s) => sentEnd(body, c.at + name.length + 4, s) !== null));
    starts.push(matching ?? list[0]!);
  }
  return starts.sort((a, b) => a.at - b.at);
}

function splitBlocks(body: string, known: ReadonlySet<string>, sent: SentTexts): InstructionBlock[] {
  const starts = blockStarts(body, known, sent);
  return starts.map((s, i) => {
    const stop = i + 1 < starts.length ? starts[i + 1]!.at - 2 : body.length;
    return parseBlock(body.slice(s.at, stop), s.name);
  });
}
