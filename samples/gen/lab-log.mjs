// The lab server's message log (src/lab/rpc-log.ts) as the generators write it: shared by make-demo.mjs
// and make-instructions.mjs so every sample's lab log has the one format `ccforensics lab --log` writes.

const at = (t, ms) => new Date((typeof t === "number" ? t : Date.parse(t)) + ms).toISOString();

const clientMeta = (version) => ({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "claude-code", version },
  "io.modelcontextprotocol/clientCapabilities": { roots: {}, elicitation: {} },
});

/** The lab instructions server's tools/list (src/lab/instructions-server.ts INSTRUCTIONS_TOOLS). */
export const LAB_TOOL_DEFS = [
  { name: "lookup_part", description: "Look up one part number: stock count and bin.", inputSchema: { type: "object", properties: { part: { type: "string", description: "part number, e.g. PN-1234" } }, required: ["part"] } },
  { name: "list_bins", description: "List the storage bins and what each one holds.", inputSchema: { type: "object", properties: {} } },
  { name: "lab_ping", description: "Check that the lab server answers.", inputSchema: { type: "object", properties: {} } },
];

/**
 * The lab's log as `ccforensics lab instructions --log` writes it: every message both ways, whole,
 * `{t, dir: "in"|"out", …}`. The probe's -32601 (or a dual-era server's DiscoverResult), initialize's
 * params and result with the source text, and the tools/list result are all in the evidence.
 */
export function labLogBoth(t0, { dual, initAfter, initText, discoverText, version = "2.1.285" }) {
  const CLIENT_META = clientMeta(version);
  const out = [];
  const add = (ms, dir, msg) => out.push(JSON.stringify({ t: at(t0, ms), dir, jsonrpc: "2.0", ...msg }));
  const serverInfo = { name: "lab", version: "0.0.1" };
  const complete = (result) => (dual ? { resultType: "complete", ...result } : result);
  const probeId = "server-discover-probe-1";
  add(0, "in", { id: probeId, method: "server/discover", params: { _meta: CLIENT_META } });
  if (dual) {
    add(1, "out", { id: probeId, result: complete({ supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, _meta: { "io.modelcontextprotocol/serverInfo": serverInfo }, ...(discoverText !== undefined ? { instructions: discoverText } : {}), ttlMs: 0, cacheScope: "private" }) });
    add(4, "in", { id: 1, method: "tools/list", params: { _meta: CLIENT_META } });
    add(5, "out", { id: 1, result: complete({ tools: LAB_TOOL_DEFS, ttlMs: 0, cacheScope: "private" }) });
  } else {
    add(1, "out", { id: probeId, error: { code: -32601, message: "Method not found" } });
    add(initAfter, "in", { id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { roots: {}, elicitation: {} }, clientInfo: { name: "claude-code", version } } });
    add(initAfter + 1, "out", { id: 0, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo, ...(initText !== undefined ? { instructions: initText } : {}) } });
    add(initAfter + 2, "in", { method: "notifications/initialized" });
    add(initAfter + 4, "in", { id: 1, method: "tools/list" });
    add(initAfter + 5, "out", { id: 1, result: { tools: LAB_TOOL_DEFS } });
  }
  return out.join("\n") + "\n";
}
