import type { DebugResult } from "../analyses/debug.js";
import { headlessEmpty, headlessEmptyText } from "../analyses/headless-run.js";
import { documentHealth, type Health, type InputHealth } from "../records/health.js";
import { readDebugLogOnly, readHeadlessRun } from "../pipeline/evidence.js";
import type { CommandOutput } from "../report/envelope.js";
import { healthTable, healthWarnings } from "../report/health-table.js";
import { debugWithRun, headlessSection, type HeadlessSection } from "../assemble/headless-section.js";
import { headlessTables } from "../report/headless-tables.js";
import { evidenceInput } from "../sources/evidence.js";
import type { InputFile } from "../sources/input.js";
import { debugTables } from "../report/debug-tables.js";
import { byCount, otherLabel, type OtherNames } from "../records/counts.js";
import type { CommonOptions } from "./common.js";
import type { CommandSpec } from "./registry.js";
import { OUTPUT } from "./options.js";

export interface DebugOptions extends CommonOptions {
  allEvents?: boolean;
}

export const debugCommand: CommandSpec = {
  command: "debug <file>",
  describe: "events and per-server summary from a Claude Code debug log (or a per-server mcp-logs-<server>/*.jsonl)",
  common: [...OUTPUT, "strict", "stream-json"],
  examples: [
    ["ccforensics debug samples/logs/debug/legacy-truncated.debug.txt", "MCP servers, runtime arm, truncation and the timeline of one run"],
    [
      "ccforensics debug samples/logs/debug/late-server.debug.txt --stream-json samples/logs/claude-p/late-server.stream.jsonl --format markdown",
      "a late server, with the init event's `pending` status and the run's cost per model",
    ],
  ],
  positionals: { file: { describe: "debug log (--debug-file output, ~/.claude/debug/<session>.txt), or - for stdin" } },
  options: {
    "all-events": {
      type: "boolean",
      describe: "list every entry in the tables, not only recognised events, warnings and errors, and not only the first 1,000",
    },
  },
  run: (argv) => runDebug(String(argv.file), argv as DebugOptions),
};

/** Reads a debug log in one pass; optionally a `claude -p` output for the init event's server statuses. */
export async function runDebug(file: string, opts: DebugOptions): Promise<CommandOutput> {
  const input = evidenceInput(file, "debug-log");
  const { result, health: own } = await analyseDebugLog(input, opts);
  const inputs: InputFile[] = [input];
  const parts: InputHealth[] = [{ health: own, share: "whole" }];
  let run: HeadlessSection | null = null;
  const notes: string[] = [];
  if (opts.streamJson) {
    const r = await readHeadlessRun(evidenceInput(opts.streamJson, "stream-json"), { stdin: opts.stdin });
    run = headlessSection(r.result);
    if (headlessEmpty(r.result, r.health)) notes.push(`${opts.streamJson}: ${headlessEmptyText(r.health)}`);
    inputs.push(r.input);
    parts.push({ health: r.health, share: "whole" });
  }
  const health = documentHealth(parts);
  const joined = debugWithRun(result, run);
  return {
    command: "debug",
    inputs,
    health,
    data: { debug: joined, ...(run ? { run } : {}) },
    document: {
      title: `Debug log — ${input.path}`,
      summary: debugSummary(result),
      tables: [
        ...debugTables({ ...result, flags: joined.flags }, opts.allEvents === true),
        ...(run ? headlessTables(run, result.servers) : []),
        healthTable(health),
      ],
      warnings: [...notes, ...healthWarnings(health)],
    },
  };
}

/** The one pass over a debug log, for the `debug` reducer only. */
export async function analyseDebugLog(input: InputFile, opts: CommonOptions): Promise<{ result: DebugResult; health: Health }> {
  const ev = await readDebugLogOnly(input, { stdin: opts.stdin }, opts.env);
  return { result: ev.result, health: ev.health };
}

/** Sources named in the summary line; the rest (and those past the cap, `apiRequestSourcesOther`) are one item. */
const SOURCES_SHOWN = 10;

function debugSummary(r: DebugResult): Array<[string, unknown, ("int" | "text" | "time")?]> {
  const all = byCount(r.apiRequestSources);
  const rest: OtherNames = { ...(r.apiRequestSourcesOther ?? { names: 0, records: 0 }) };
  for (const [, k] of all.slice(SOURCES_SHOWN)) {
    rest.names++;
    rest.records += k;
  }
  const sources = all.slice(0, SOURCES_SHOWN).map(([k, v]) => `${k} ${v}`);
  if (rest.names > 0) sources.push(otherLabel(rest) + (all.length > SOURCES_SHOWN ? " (see debug.apiRequestSources in --json)" : ""));
  return [
    ["entries", r.entries, "int"],
    ["first", r.firstTime, "time"],
    ["last", r.lastTime, "time"],
    [
      "levels",
      Object.entries(r.levels)
        .map(([k, v]) => `${k} ${v}`)
        .join(", "),
    ],
    ["mcp runtime arm", r.runtimeArm === null ? null : `${r.runtimeArm} (source: ${r.runtimeArmSource})`],
    ["API requests", r.apiRequests ? `${r.apiRequests}${sources.length ? ` (${sources.join(", ")})` : ""}` : 0],
    ["errors", r.errors, "int"],
    ["count_tokens calls", r.countTokensCalls, "int"],
    ["persisted tool results", r.persisted.length, "int"],
  ];
}
