import { skippedTable, skippedWarning } from "../report/health-table.js";
import { takeSkipped } from "../sources/guard.js";
import type { CommandSpec } from "./registry.js";

/**
 * Discovery passes over files anywhere in a command (session lookup, subagents, debug log); this wrapper
 * collects what the guard skipped during one run into the command's health, a table and one stderr line.
 */
export function guarded(spec: CommandSpec): CommandSpec {
  return {
    ...spec,
    async run(argv) {
      takeSkipped();
      const out = await spec.run(argv);
      const skipped = takeSkipped();
      if (skipped.length > 0) {
        out.health.skipped = [...(out.health.skipped ?? []), ...skipped];
        out.document.tables.push(skippedTable(skipped));
        out.document.warnings.push(skippedWarning(skipped));
      }
      return out;
    },
  };
}
