import type { Counts } from "../analyses/inventory.js";
import { healthTable, healthWarnings } from "../report/health-table.js";
import { col, type Table } from "../report/model.js";
import { loadTranscripts } from "./common.js";
import { envelopeInputs } from "../assemble/inputs.js";
import type { CommandSpec } from "./registry.js";

export const inventoryCommand: CommandSpec = {
  command: "inventory [target]",
  describe: "record types, attachment kinds, system subtypes, versions, unknowns and parse health",
  examples: [["ccforensics inventory 33333333-4444", "what is in a session, and what is damaged"]],
  positionals: { target: { describe: "session id or prefix, transcript path, or - for stdin" } },
  async run(argv) {
    const { resolved, health, results } = await loadTranscripts(argv.target, argv, ["inventory"]);
    const inv = results.inventory;
    const tables: Table[] = [
      countTable("recordTypes", "Record types", inv.recordTypes),
      countTable("attachmentKinds", "Attachment kinds", inv.attachmentKinds),
      countTable("systemSubtypes", "System subtypes", inv.systemSubtypes),
      countTable("progressTypes", "Progress data types", inv.progressTypes),
      countTable("versions", "Claude Code versions", inv.versions),
      countTable("models", "Models (assistant records)", inv.models),
      countTable("chains", "Chains (records per chain)", inv.chains),
      healthTable(health),
    ].filter((t) => t.rows.length > 0 || t.id === "health" || t.id === "recordTypes");
    return {
      command: "inventory",
      inputs: envelopeInputs(resolved.inputs),
      health,
      data: { inventory: inv },
      document: {
        title: `Inventory — ${resolved.sessionId ?? resolved.target}`,
        summary: [
          ["files", resolved.inputs.length, "int"],
          ["records", health.records, "int"],
          ["session ids", Object.keys(inv.sessionIds).join(", ")],
          ["session_id (snake case) records", inv.snakeCaseSessionIds, "int"],
          ["cwd", Object.keys(inv.cwds).join(", ")],
          ["entrypoints", Object.keys(inv.entrypoints).join(", ")],
          ["first", inv.firstTimestamp],
          ["last", inv.lastTimestamp],
          ["sidechain records", inv.sidechainRecords, "int"],
        ],
        tables,
        warnings: healthWarnings(health),
      },
    };
  },
};

function countTable(id: string, title: string, c: Counts): Table {
  const rows = Object.entries(c)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([name, count]) => ({ name, count }));
  return { id, title, columns: [col("name", "name"), col("count", "count", "int")], rows };
}
