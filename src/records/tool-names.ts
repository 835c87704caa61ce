/**
 * Tool names as Claude Code calls them and the `tool-results/` file names it writes (FORMATS.md 6.4,
 * 9.4). Pure string work.
 */

export interface ToolName {
  /** The MCP server segment as it appears in the name (normalized `[^a-zA-Z0-9_-]`→`_`), or null for built-ins. */
  server: string | null;
  /** The server's tool name, or the built-in's name. */
  tool: string;
  /** `mcp__plugin_<plugin>_<server>__<tool>`: a plugin's server. */
  plugin: boolean;
}

/** Claude Code's normalization of a server name inside `mcp__<server>__<tool>`. */
export function normalizeServer(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, "_");
}

/**
 * Splits `mcp__<server>__<tool>`. The name alone is ambiguous when a server or a tool name holds `__`,
 * so known server names (instructions deltas, debug log) and known tool names (a tools/list response)
 * decide first; without them the split is at the last `__`, because server names are chosen freely
 * by users while MCP tool names rarely carry a double underscore.
 */
export function splitToolName(name: string, known: { servers?: Iterable<string>; tools?: Iterable<string> } = {}): ToolName {
  if (!name.startsWith("mcp__") || name.length <= 5) return { server: null, tool: name, plugin: false };
  const rest = name.slice(5);
  const plugin = rest.startsWith("plugin_");
  let best: string | null = null;
  for (const s of known.servers ?? []) {
    const n = normalizeServer(s);
    if (rest.startsWith(`${n}__`) && rest.length > n.length + 2 && (best === null || n.length > best.length)) best = n;
  }
  if (best !== null) return { server: best, tool: rest.slice(best.length + 2), plugin };
  let bestTool: string | null = null;
  for (const t of known.tools ?? []) {
    if (rest.endsWith(`__${t}`) && rest.length > t.length + 2 && (bestTool === null || t.length > bestTool.length)) bestTool = t;
  }
  if (bestTool !== null) return { server: rest.slice(0, rest.length - bestTool.length - 2), tool: bestTool, plugin };
  const at = rest.lastIndexOf("__");
  if (at <= 0) return { server: rest, tool: "", plugin };
  return { server: rest.slice(0, at), tool: rest.slice(at + 2), plugin };
}

export { baseName, savedName, type SavedName, type SavedNameKind } from "../sources/saved-names.js";
