import { envelopeInputs } from "../assemble/inputs.js";
import type { CommandOutput } from "../report/envelope.js";
import { healthTable, healthWarnings } from "../report/health-table.js";
import { requestTables } from "../report/requests-tables.js";
import { loadTranscripts, type CommonOptions } from "./common.js";

/** `requests [target]`: one row per API request with tokens, delta and what was added in between. */
export async function runRequests(target: string | undefined, opts: CommonOptions): Promise<CommandOutput> {
  const { resolved, health, results } = await loadTranscripts(target, opts, ["requests"]);
  const r = results.requests;
  return {
    command: "requests",
    inputs: envelopeInputs(resolved.inputs),
    health,
    data: { requests: r.requests, totals: r.totals },
    document: {
      title: `Requests — ${resolved.sessionId ?? resolved.target}`,
      // JSON prints the domain rows, not the tables: a second copy of a million rows is memory for nothing.
      tables: opts.format === "json" ? [] : [...requestTables(r), healthTable(health)],
      warnings: healthWarnings(health),
    },
  };
}
