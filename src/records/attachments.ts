import { arr, isObject, type JsonObject } from "./json.js";

export const REMINDER_OPEN = "<system-reminder>\n";
export const REMINDER_CLOSE = "\n</system-reminder>";
export const MCP_INSTRUCTIONS_HEADING =
  "# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n";
export const MCP_INSTRUCTIONS_REMOVED = "The following MCP servers have disconnected. Their instructions above no longer apply:";

export interface Rendered {
  text: string;
  /** true when the text is the one the record itself stored, or a rendering FORMATS.md gives exactly. */
  exact: boolean;
  source: "stored" | "rendered" | "estimate";
}

/**
 * The model-visible text of an attachment. 2.1.285 stores the rendered `<system-reminder>` text in the
 * record (field name not fixed: any string starting with the tag); otherwise the kinds whose rendering
 * is known are rendered, and the rest are estimated from their string contents.
 */
export function renderAttachment(a: JsonObject, recordRaw?: JsonObject): Rendered {
  const stored = findReminder(a) ?? (recordRaw ? findReminder(recordRaw, new Set(["attachment", "message"])) : undefined);
  if (stored !== undefined) return { text: stored, exact: true, source: "stored" };
  if (a.type === "mcp_instructions_delta") {
    const t = renderMcpInstructionsDelta(a);
    return { text: t.text, exact: t.exact, source: "rendered" };
  }
  return { text: stringContent(a, 0), exact: false, source: "estimate" };
}

/** Renders an `mcp_instructions_delta` as Claude Code wraps it (FORMATS.md 2.2, 5.1). */
export function renderMcpInstructionsDelta(a: JsonObject): { text: string; exact: boolean } {
  const blocks = (arr(a.addedBlocks) ?? []).filter((b): b is string => typeof b === "string");
  const removed = (arr(a.removedNames) ?? []).filter((b): b is string => typeof b === "string");
  const parts: string[] = [];
  if (blocks.length > 0) parts.push(MCP_INSTRUCTIONS_HEADING + blocks.join("\n\n"));
  if (removed.length > 0) parts.push(`${MCP_INSTRUCTIONS_REMOVED}\n${removed.join("\n")}`);
  return { text: REMINDER_OPEN + parts.join("\n\n") + REMINDER_CLOSE, exact: removed.length === 0 };
}

function findReminder(o: JsonObject, skip?: Set<string>): string | undefined {
  for (const k in o) {
    if (skip?.has(k)) continue;
    const v = o[k];
    if (typeof v === "string" && v.startsWith("<system-reminder>")) return v;
  }
  for (const k in o) {
    if (skip?.has(k)) continue;
    const v = o[k];
    if (isObject(v))
      for (const k2 in v) {
        const w = v[k2];
        if (typeof w === "string" && w.startsWith("<system-reminder>")) return w;
      }
  }
  return undefined;
}

/** Sum of the string values under an attachment, skipping its `type`: a rough size for kinds we do not render. */
function stringContent(v: unknown, depth: number): string {
  if (depth > 8) return "";
  if (typeof v === "string") return v;
  if (Array.isArray(v)) return v.map((x) => stringContent(x, depth + 1)).join("\n");
  if (isObject(v)) {
    let s = "";
    for (const k in v) if (k !== "type") s += stringContent(v[k], depth + 1);
    return s;
  }
  return "";
}
