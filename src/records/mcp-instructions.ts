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

export interface RenderedSection {
  /** Offset of the heading (or of the removal notice) in the searched text. */
  at: number;
  blocks: InstructionBlock[];
  removed: string[];
  /** The section as it stands in the text: from the heading to the end of its blocks. */
  section: string;
  /** The `<system-reminder>` that holds the section, when there is one: the characters the model saw. */
  reminder: string | null;
}

/**
 * The `# MCP Server Instructions` section inside a larger text (a `<system-reminder>` in a user
 * record, a system prompt). The first block opens at `## <name>\n`; later ones only at `\n\n## <name>\n`
 * for a name in `knownNames`, since instruction texts may carry their own `## ` headings. The section ends at the
 * reminder's close, at the removal notice, or (in a system prompt) at the next `\n\n# ` heading.
 */
export function findRenderedSection(text: string, knownNames: ReadonlySet<string> = new Set()): RenderedSection | undefined {
  const h = text.indexOf(MCP_INSTRUCTIONS_HEADING.trimEnd());
  const r = text.indexOf(MCP_INSTRUCTIONS_REMOVED);
  if (h < 0 && r < 0) return undefined;
  const at = h >= 0 && (r < 0 || h < r) ? h : r;
  const open = text.lastIndexOf("<system-reminder>", at);
  const closeAt = text.indexOf(REMINDER_CLOSE, at);
  const inReminder = open >= 0 && closeAt >= 0 && !text.slice(open, at).includes("</system-reminder>");
  const end = inReminder ? closeAt : sectionEnd(text, at);
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
  const blocks = body.startsWith(MCP_INSTRUCTIONS_HEADING) ? splitBlocks(body.slice(MCP_INSTRUCTIONS_HEADING.length), knownNames) : [];
  return { at, blocks, removed, section, reminder };
}

/** Section end in a system prompt: the next top-level `# ` heading after the section's own. */
function sectionEnd(text: string, at: number): number {
  const next = text.indexOf("\n\n# ", at + 2);
  return next < 0 ? text.length : next;
}

/** Where a rendered section may start a server's block: `## <name>` after a blank line (FORMATS.md 5.1). */
const HEADING = /(?:^|\n\n)## ([^\n]{1,200})\n/g;

/** The `## ` heading lines of a server's text that stand as a block would: its own markdown, kept inside it. */
export function headingsIn(text: string): string[] {
  return [...text.matchAll(HEADING)].map((m) => m[1]!);
}

function splitBlocks(body: string, known: ReadonlySet<string>): InstructionBlock[] {
  const starts: Array<{ at: number; name: string }> = [];
  const head = new RegExp(HEADING.source, "g");
  for (let m = head.exec(body); m; m = head.exec(body)) {
    const name = m[1]!;
    // The body always opens with a block; a later `## ` line starts one only under a server name the
    // session knows (addedNames, mcp__ tool names, the logs). With none known it stays in the text: a
    // server's own `## Usage` must not become a phantom server and cut the real one short.
    if (m.index > 0 && !known.has(name)) continue;
    starts.push({ at: m.index + (m[0].startsWith("\n\n") ? 2 : 0), name });
  }
  return starts.map((s, i) => {
    const stop = i + 1 < starts.length ? starts[i + 1]!.at - 2 : body.length;
    return parseBlock(body.slice(s.at, stop), s.name);
  });
}
