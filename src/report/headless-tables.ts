import { inputTotal, type HeadlessSection } from "../assemble/headless-section.js";
import { col, type ColumnKind, type Table } from "./model.js";
import { MAX_NAMES, otherLabel } from "../records/counts.js";
import { formatInt } from "./int-format.js";

/**
 * Tables for a `claude -p` run: init, MCP server statuses (beside the debug log's last state for each, when a debug
 * log was read), result, its errors and permission denials, and usage per model (main, subagent, background).
 */
export function headlessTables(s: HeadlessSection, debugServers?: ReadonlyArray<{ name: string; status: string }>): Table[] {
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
    tables.push(serversTable(s, debugServers));
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
        ...costRows(s),
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
        // Past the cap, one last row sums the models not listed, as every capped list counts its rest.
        ...(r.modelUsageOther
          ? [
              {
                ...r.modelUsageOther,
                model: otherLabel(r.modelUsageOther),
                // Their names are not kept, so no subagent event can be matched to them: background call or subagent.
                role: "other",
                totalInputTokens: inputTotal(r.modelUsageOther),
              },
            ]
          : []),
      ],
      footer,
      notes: usageNotes(s),
    });
    if (r.errors.length > 0) {
      tables.push({
        id: "run:errors",
        title: "claude -p result errors",
        columns: [col("index", "#", "int", { priority: 1 }), col("error", "error", "message", { priority: 1 })],
        rows: r.errors.map((error, i) => ({ index: i + 1, error })),
        notes: ["result.errors[]: why the run failed, as claude -p wrote it"],
      });
    }
    if (s.denials.length > 0) {
      tables.push({
        id: "run:permissionDenials",
        title: "Permission denials",
        columns: [
          col("tool", "tool", "id", { priority: 1 }),
          col("toolUseId", "tool_use_id", "id", { priority: 2 }),
          col("input", "input", "message", { priority: 1 }),
        ],
        rows: s.denials.map((d) => ({ ...d })),
        notes: [
          "result.permission_denials[]: tool calls the permission mode refused; input = the call's input as key=value, long strings shortened",
        ],
      });
    }
  }
  return tables;
}

/** Statuses that say a connection failed: the init event's `failed` and `needs-auth`, and the debug log's (analyses/debug.ts). */
const FAILED = new Set(["failed", "needs-auth", "timeout", "errored", "killed"]);

/** The init events' server statuses (the latest init event that lists each), with the debug log's last state beside them. */
function serversTable(s: HeadlessSection, debugServers?: ReadonlyArray<{ name: string; status: string }>): Table {
  const many = s.inits > 1;
  const atEnd = (name: string) => (debugServers ? (debugServers.find((d) => d.name === name)?.status ?? null) : undefined);
  const rows = s.serverStatuses.map((m) => ({
    name: m.name,
    status: m.status,
    ...(many ? { firstStatus: m.firstStatus, initEvent: m.initEvent } : {}),
    ...(debugServers ? { debugStatus: atEnd(m.name) } : {}),
    tools: m.tools,
  }));
  const notes: string[] = [];
  if (many)
    notes.push(
      `status = the latest of the ${s.inits} init events (one per turn) that lists the server; first status = its status in the first one that lists it`,
    );
  if (s.pendingServers.length)
    notes.push(
      `pending = not yet connected when the init event was written: ${s.pendingServers.join(", ")} — its tools and instructions can miss request 1 and arrive with a later request`,
    );
  const other = s.init?.mcpServersOther;
  if (other) notes.push(`${otherLabel(other)}: servers past the first ${formatInt(MAX_NAMES)} named are counted, not listed`);
  if (debugServers) {
    // A clean close at the end, or pending then connected, is what a run does; a failure on one side only is not.
    const bad = (x: string) => FAILED.has(x);
    const differ = rows.filter(
      (r) =>
        typeof r.debugStatus === "string" && ((bad(r.debugStatus) && !bad(r.status)) || (bad(r.status) && r.debugStatus === "connected")),
    );
    if (differ.length)
      notes.push(
        `the init event is a snapshot taken before connections finish; the debug log disagrees for ${differ
          .map((r) => `${r.name} (init ${r.status}, debug log's last state ${r.debugStatus})`)
          .join(", ")}`,
      );
  }
  return {
    id: "run:mcpServers",
    title: "MCP servers at init",
    columns: [
      col("name", "server", "id", { priority: 1 }),
      col("status", "status", "text", { priority: 1 }),
      ...(many ? [col("firstStatus", "first status", "text", { priority: 2 }), col("initEvent", "from init", "int", { priority: 3 })] : []),
      ...(debugServers ? [col("debugStatus", "debug log (last state)", "text", { priority: 1, empty: "not in log" })] : []),
      col("tools", "tools", "int", { priority: 2 }),
    ],
    rows,
    notes,
  };
}

/** Background and subagent cost rows, or why the split is unknown. */
function costRows(s: HeadlessSection): Array<[string, unknown, ColumnKind?]> {
  if (s.costSplitUnknown === "no-model-usage") return [["background cost", "unknown (no modelUsage)"]];
  if (s.costSplitUnknown === "roles-unknown") return [["background cost", "unknown (no assistant events: background call or subagent)"]];
  return [
    ["background cost", s.backgroundCostUsd, "usdExact"],
    ...(s.models.some((m) => m.role === "subagent")
      ? [["subagent cost", s.subagentCostUsd, "usdExact"] as [string, unknown, ColumnKind]]
      : []),
  ];
}

function usageNotes(s: HeadlessSection): string[] {
  if (s.costSplitUnknown === "no-model-usage")
    return [
      "no modelUsage in this result (older claude -p output, or a run that made no request): cost per model and background calls unknown",
    ];
  const notes = ["result.usage counts the main model only; modelUsage and total_cost_usd include background calls and subagents"];
  if (s.models.some((m) => m.role === "subagent"))
    notes.push("subagent = a model the run's subagent events (parent_tool_use_id set) used; background = a model no event of the run used");
  if (s.costSplitUnknown === "roles-unknown")
    notes.push("other = background call or subagent: this output has no assistant events to tell which");
  const main = s.mainModel;
  if (main !== null && s.subagentModels.includes(main))
    notes.push(`the main model's modelUsage entry also counts the subagent requests made with ${main}`);
  return notes;
}
