import { arr, isObject, str, type JsonObject } from "../records/json.js";
import type { AnyRecord } from "../records/transcript.js";
import type { Analysis } from "./analysis.js";

/** How one session met a tool: listed as deferred (behind ToolSearch), defined in a prompt snapshot, called. */
export interface ToolSighting {
  name: string;
  /** Named in a `deferred_tools_delta` attachment's `addedNames`: listed, loaded only on a ToolSearch. */
  deferred: boolean;
  /** Defined in a `prompt_snapshot`'s tools (loaded into the request), with its definition's JSON size. */
  defined: boolean;
  definitionChars: number | null;
  /** tool_use blocks that called it (every chain). */
  calls: number;
}

type State = Map<string, ToolSighting>;

/**
 * The tools a session shows, from the transcript alone: deferred-tools lists, prompt snapshots' tool
 * definitions and tool_use names. Bounded by the number of distinct tools, whatever the session's length.
 */
export const toolSightingsAnalysis: Analysis<State, ToolSighting[]> = {
  init: () => new Map(),
  step(s, rec: AnyRecord) {
    if (rec.kind === "assistant") {
      for (const b of rec.content) if (b.type === "tool_use" && typeof b.name === "string") seen(s, b.name).calls++;
    } else if (rec.kind === "attachment" && rec.attachmentType === "deferred_tools_delta") {
      for (const n of arr(rec.attachment.addedNames) ?? []) if (typeof n === "string") seen(s, n).deferred = true;
    } else if (rec.kind === "attachment" && rec.attachmentType === "prompt_snapshot") {
      snapshot(s, rec.attachment);
    } else if (rec.kind === "meta" && rec.type === "prompt_snapshot") {
      snapshot(s, rec.raw);
    }
  },
  finish: (s) => [...s.values()].sort((a, b) => a.name.localeCompare(b.name)),
};

function seen(s: State, name: string): ToolSighting {
  let t = s.get(name);
  if (!t) s.set(name, (t = { name, deferred: false, defined: false, definitionChars: null, calls: 0 }));
  return t;
}

function snapshot(s: State, o: JsonObject): void {
  for (const d of snapshotTools(o)) {
    const t = seen(s, d.name);
    t.defined = true;
    t.definitionChars ??= d.chars;
  }
}

/** A prompt snapshot's tool definitions (`tools: [{name, description, input_schema}]`), each with its JSON length. */
export function snapshotTools(o: JsonObject): Array<{ name: string; chars: number }> {
  const out: Array<{ name: string; chars: number }> = [];
  for (const t of arr(o.tools) ?? []) {
    if (!isObject(t)) continue;
    const name = str(t.name);
    if (name !== undefined) out.push({ name, chars: JSON.stringify(t).length });
  }
  return out;
}
