import { inputTotal, type HeadlessSection } from "../assemble/headless-section.js";
import { col, type ColumnKind, type Table } from "./model.js";
import { MAX_NAMES, otherLabel } from "../records/counts.js";
import { formatInt } from "./int-format.js";

/** Tables for a `claude -p` run: init, MCP server statuses, result, and usage per model (main vs background). */
export function headlessTables(s: HeadlessSection): Table[] {
  const tables: Table[] = [];
  const kv = (id: string, title: string, rows: Array<[string, unknown, ColumnKind?]>, notes: string[] = []): Table => ({
    id,
    title,
    columns: [col("field", "field", "text", { priority: 1 }), col("value", "value", "mixed", { priority: 1 })],
    rows: rows.map(([field, value, kind]) => ({ field, value, kind: kind ?? "text" })),
    notes,
  });
  if (s.init) {
    const i = s.init;
    tables.push(
      kv(
        "run:init",
        "claude -p init",
        [
          ["session", i.sessionId],
          ["model", i.model],
          ["version", i.version],
          ["cwd", i.cwd],
          ["permission mode", i.permissionMode],
          // Past the cap on names (records/counts.ts) the rest are one last item, counted in the total.
          [
            "tools",
            `${i.tools.length + (i.toolsOther?.records ?? 0)}: ${[...i.tools, ...(i.toolsOther ? [otherLabel(i.toolsOther)] : [])].join(", ")}`,
          ],
        ],
        s.inits > 1 ? [`${s.inits} init events (one per turn); the first is shown`] : [],
      ),
    );
    tables.push({
      id: "run:mcpServers",
      title: "MCP servers at init",
      columns: [
        col("name", "server", "id", { priority: 1 }),
        col("status", "status", "text", { priority: 1 }),
        col("tools", "tools", "int", { priority: 2 }),
      ],
      rows: i.mcpServers.map((m) => ({
        name: m.name,
        status: m.status,
        tools: i.tools.filter((t) => t.startsWith(`mcp__${m.name.replace(/[^a-zA-Z0-9_-]/g, "_")}__`)).length,
      })),
      notes: [
        ...(s.pendingServers.length
          ? [
              `pending = not yet connected when the init event was written: ${s.pendingServers.join(", ")} — its tools and instructions can miss request 1 and arrive with a later request`,
            ]
          : []),
        ...(i.mcpServersOther
          ? [`${otherLabel(i.mcpServersOther)}: servers past the first ${formatInt(MAX_NAMES)} named are counted, not listed`]
          : []),
      ],
    });
  }
  if (s.result) {
    const r = s.result;
    tables.push(
      kv("run:result", "claude -p result", [
        ["subtype", r.isError ? `${r.subtype} (error)` : r.subtype],
        ["turns", r.numTurns, "int"],
        ["duration", r.durationMs, "ms"],
        ["API duration", r.durationApiMs, "ms"],
        ["total cost", r.totalCostUsd, "usdExact"],
        ["background cost", s.backgroundCostUsd, "usdExact"],
        ["permission denials", r.permissionDenials.length, "int"],
        ["session", r.sessionId],
        ["result", r.result],
      ]),
    );
    const footer = r.usage
      ? [
          {
            model: "usage (main model only)",
            role: "",
            inputTokens: r.usage.inputTokens,
            cacheCreationInputTokens: r.usage.cacheCreationInputTokens,
            cacheReadInputTokens: r.usage.cacheReadInputTokens,
            outputTokens: r.usage.outputTokens,
            totalInputTokens: inputTotal(r.usage),
          },
        ]
      : [];
    tables.push({
      id: "run:modelUsage",
      title: "Usage per model (modelUsage)",
      columns: [
        col("model", "model", "id", { priority: 1 }),
        col("role", "role", "text", { priority: 2 }),
        col("inputTokens", "input", "int"),
        col("cacheCreationInputTokens", "cache create", "int"),
        col("cacheReadInputTokens", "cache read", "int"),
        col("totalInputTokens", "total input", "int", { priority: 1 }),
        col("outputTokens", "output", "int"),
        col("costUSD", "cost", "usd", { priority: 1 }),
        col("contextWindow", "context", "int"),
      ],
      rows: [
        ...s.models.map((m) => ({ ...m })),
        // Past the cap, one last row sums the models not listed (background calls), as every capped list counts its rest.
        ...(r.modelUsageOther
          ? [
              {
                ...r.modelUsageOther,
                model: otherLabel(r.modelUsageOther),
                role: "background",
                totalInputTokens: inputTotal(r.modelUsageOther),
              },
            ]
          : []),
      ],
      footer,
      notes: ["result.usage counts the main model only; modelUsage and total_cost_usd include background calls"],
    });
  }
  return tables;
}
