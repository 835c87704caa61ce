import { renderAttachment } from "../records/attachments.js";
import { bump, newCounts, type Counts } from "../records/counts.js";
import { visibleText } from "../records/content.js";
import { str, type JsonObject } from "../records/json.js";
import { splitToolName } from "../records/tool-names.js";
import type { AnyRecord } from "../records/transcript.js";
import type { Analysis } from "./analysis.js";
import { snapshotTools } from "./tool-sightings.js";

/**
 * What the main chain's first request was built from, in characters: the prompt snapshot's system prompt
 * and tool definitions (per MCP server; built-ins under null), the MCP instructions, the other attachments
 * by kind and the user's text. Only records before the first assistant record count.
 */
export interface FirstRequestComposition {
  /** false when the main chain has no prompt snapshot: system prompt and tool definitions are then unknown (null). */
  snapshot: boolean;
  systemPromptChars: number | null;
  toolDefinitions: Array<{ server: string | null; tools: number; chars: number }>;
  instructionsChars: number;
  /**
   * Other attachments' chars by kind (`deferred_tools_delta`, `skill_listing`, …); a kind without stored text is estimated.
   * A prototype-free Counts (records/counts.ts): `totalOf` sums it, kinds past the cap included.
   */
  attachments: Counts;
  attachmentCharsExact: boolean;
  userTextChars: number;
}

interface State {
  done: boolean;
  c: FirstRequestComposition;
  defs: Map<string | null, { tools: number; chars: number }>;
}

export const firstRequestAnalysis: Analysis<State, FirstRequestComposition> = {
  init: () => ({
    done: false,
    defs: new Map(),
    c: {
      snapshot: false,
      systemPromptChars: null,
      toolDefinitions: [],
      instructionsChars: 0,
      attachments: newCounts(),
      attachmentCharsExact: true,
      userTextChars: 0,
    },
  }),
  step(s, rec: AnyRecord) {
    if (s.done || rec.kind === "malformed" || rec.chain !== "main") return;
    const c = s.c;
    switch (rec.kind) {
      case "assistant":
        if (rec.notRequest === undefined && !rec.isApiError) s.done = true;
        break;
      case "user":
        if (!rec.isMeta) c.userTextChars += typeof rec.content === "string" ? rec.content.length : visibleText(rec.content).length;
        break;
      case "meta":
        if (rec.type === "prompt_snapshot") snapshot(s, rec.raw);
        break;
      case "attachment": {
        if (rec.attachmentType === "prompt_snapshot") return snapshot(s, rec.attachment);
        const r = renderAttachment(rec.attachment, rec.raw);
        if (rec.attachmentType === "mcp_instructions_delta") c.instructionsChars += r.text.length;
        else bump(c.attachments, rec.attachmentType, r.text.length);
        if (!r.exact) c.attachmentCharsExact = false;
        break;
      }
      default:
        break;
    }
  },
  finish(s) {
    s.c.toolDefinitions = [...s.defs]
      .map(([server, d]) => ({ server, ...d }))
      .sort((a, b) => (a.server ?? "").localeCompare(b.server ?? ""));
    return s.c;
  },
};

function snapshot(s: State, o: JsonObject): void {
  // The first snapshot describes the first request; later ones (a resumed session) do not.
  if (s.c.snapshot) return;
  s.c.snapshot = true;
  s.c.systemPromptChars = str(o.systemPrompt)?.length ?? null;
  for (const t of snapshotTools(o)) {
    const server = splitToolName(t.name).server;
    const d = s.defs.get(server) ?? { tools: 0, chars: 0 };
    d.tools++;
    d.chars += t.chars;
    s.defs.set(server, d);
  }
}
