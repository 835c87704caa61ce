import type { RpcRecord } from "../records/rpc.js";
import { toolsFromResult, type ToolMeta, type ToolsListRecord } from "../records/tools-list.js";
import type { Analysis } from "./analysis.js";

export interface ToolsListResult {
  /** Unique by name, the first definition of a name kept. */
  tools: ToolMeta[];
  /** Why the file stopped parsing, if it did; the tools read before that point are kept. */
  error: string | null;
}

/** The tools of a `--tools FILE` response. */
export const toolsListAnalysis: Analysis<{ r: ToolsListResult; seen: Set<string> }, ToolsListResult, ToolsListRecord> = {
  init: () => ({ r: { tools: [], error: null }, seen: new Set() }),
  step(s, rec) {
    if (rec.kind === "malformed") s.r.error ??= rec.reason;
    else if (!s.seen.has(rec.tool.name)) {
      s.seen.add(rec.tool.name);
      s.r.tools.push(rec.tool);
    }
  },
  finish: (s) => s.r,
};

/** Every tool of every tools/list answer in an MCP message log, in log order (duplicates kept). */
export const rpcToolsAnalysis: Analysis<ToolMeta[], ToolMeta[], RpcRecord> = {
  init: () => [],
  step(out, rec) {
    if (rec.kind === "rpc" && rec.shape === "result")
      for (const t of toolsFromResult(rec.message.result)) out.push(rec.server === null ? t : { ...t, server: rec.server });
  },
  finish: (out) => out,
};
