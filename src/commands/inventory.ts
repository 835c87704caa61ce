import type { CountFacet, InventoryDoc } from "../analyses/inventory.js";
import { otherLabel } from "../records/counts.js";
import { healthWarnings } from "../report/health-table.js";
import { inventoryTables } from "../report/inventory-tables.js";
import { loadTranscripts } from "./common.js";
import { envelopeInputs } from "../assemble/inputs.js";
import type { CommandSpec } from "./registry.js";
import { OUTPUT, LOOKUP } from "./options.js";

export const inventoryCommand: CommandSpec = {
  command: "inventory [target]",
  describe: "record types, attachment kinds, system subtypes, versions, unknowns and parse health",
  common: [...OUTPUT, ...LOOKUP],
  examples: [
    ["ccforensics inventory samples/damaged/33333333-4444-4555-8666-777777777777.jsonl", "what is in a session, and what is damaged"],
  ],
  positionals: { target: { describe: "session id or prefix, transcript path, or - for stdin" } },
  async run(argv) {
    const { resolved, health, results } = await loadTranscripts(argv.target, argv, ["inventory"]);
    const inv = results.inventory;
    const tables = inventoryTables(inv, health);
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
          ["session ids", names(inv, "sessionIds")],
          ["session_id (snake case) records", inv.snakeCaseSessionIds, "int"],
          ["cwd", names(inv, "cwds")],
          ["entrypoints", names(inv, "entrypoints")],
          ["first", inv.firstTimestamp, "time"],
          ["last", inv.lastTimestamp, "time"],
          ["sidechain records", inv.sidechainRecords, "int"],
        ],
        tables,
        warnings: healthWarnings(health),
      },
    };
  },
};

/** A facet's names in the order first seen, then the names past the cap (`<facet>Other`) as one item. */
function names(inv: InventoryDoc, f: CountFacet): string {
  const o = inv[`${f}Other`];
  return [...Object.keys(inv[f]), ...(o ? [otherLabel(o)] : [])].join(", ");
}
