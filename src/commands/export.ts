import { renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RequestRow } from "../analyses/requests.js";
import { FleetCopies, type SessionCopies } from "../analyses/fleet-copies.js";
import { FleetAggregate } from "../analyses/servers.js";
import { RuntimeError, UsageError } from "../errors.js";
import { otherFormat, prepareExportDir, removeOtherFormat } from "../output/export-dir.js";
import {
  INSTRUCTIONS,
  REQUESTS,
  schemaDocument,
  SERVERS,
  SESSIONS,
  TOOL_RESULTS,
  TOOLS,
  type ExportTable,
} from "../output/export-tables.js";
import { openSink, ROW_GROUP, seeingSink, type ExportFormat, type TableSink } from "../output/table-writer.js";
import { makeRedactor, type Redactor } from "../report/redact.js";
import { documentHealth, type Health } from "../records/health.js";
import type { FleetSession } from "../assemble/fleet-session.js";
import type { CommandOutput } from "../report/envelope.js";
import { healthTable, healthWarnings } from "../report/health-table.js";
import { col } from "../report/model.js";
import type { SessionFilter } from "../sources/session-filter.js";
import type { CommonOptions } from "./common.js";
import { CONFIG_DIR, FILTERS, OUTPUT } from "./options.js";
import type { CommandSpec } from "./registry.js";
import { foldFleet } from "./fleet-pass.js";
import { planFleet } from "../pipeline/gather-fleet.js";
import { ReadBounds, withReadBounds } from "../sources/read-bounds.js";

/** Test hook: runs between the two passes of `export --redact` (a test appends to a transcript there). */
export const exportHooks: { betweenPasses?: () => void | Promise<void> } = {};

export interface ExportOptions extends CommonOptions {
  to?: string;
  as?: ExportFormat;
  filter?: SessionFilter;
}

export interface ExportedTable {
  name: string;
  rows: number;
  bytes: number;
  path: string;
}

/** `export [targets..] --to DIR`: every session's rows streamed into one file per table, a schema file beside them. */
export async function runExport(targets: string[], opts: ExportOptions): Promise<CommandOutput> {
  if (opts.to === undefined) throw new UsageError("export needs --to DIR: the folder the tables are written to");
  const format = opts.as ?? "parquet";
  if (opts.redact === true && targets.some((t) => t === "-" || t === ""))
    throw new UsageError(
      "export --redact reads the evidence twice (once to find every id, once to write), and stdin (-) can be read once: give the file's path",
    );
  // The targets named are checked now; the sessions a listing finds lie in the config dirs, protected anyway.
  const dir = prepareExportDir({
    to: opts.to,
    claudeDir: opts.claudeDir,
    env: opts.env,
    cwd: opts.cwd,
    inputPaths: targets.filter((t) => t !== "" && t !== "-"),
  });
  // Every usage error (a second `-`, an unknown id) is found before the first file is made.
  const plan = planFleet(targets, opts);
  const ext = format === "parquet" ? "parquet" : "ndjson";
  const path = (name: string) => join(dir, `${name}.${ext}`);
  // Tables are written under a .partial name and renamed only when all of them closed: a run that
  // fails half way leaves the folder as it was, never a table that looks complete and is not.
  const partial = (name: string) => `${path(name)}.partial`;
  const opened: string[] = [];
  const group = rowGroupFrom(opts.env);
  // --redact: a first pass writes nothing and collects every text a table will hold, so each id gets the
  // one short form it has in every file and on stdout (the redaction of report/redact.ts needs them all).
  // The second pass reads each file exactly as far as the first did (sources/read-bounds.ts): a transcript
  // appended to since (a live session) is exported as the first pass saw it, and the growth is said. A text
  // the first pass did not see anyway is collected as it is written, so nothing leaves unredacted.
  const bounds = opts.redact === true ? new ReadBounds() : undefined;
  const redactor = bounds && (await withReadBounds(bounds, () => collectTexts(targets, opts, plan)));
  if (bounds) {
    bounds.cap();
    await exportHooks.betweenPasses?.();
  }
  const text = redactor && ((s: string) => (redactor.collect(s), redactor.apply(s)));
  // A .partial already there (a stale one, or a symlink planted to send the table elsewhere) is removed, never
  // written through; the rename that finishes a table replaces whatever has its name, a link too, and follows nothing.
  const open = <R>(table: ExportTable<R>) => {
    opened.push(table.name);
    rmSync(partial(table.name), { force: true });
    return openSink(table, partial(table.name), format, group, text);
  };
  const written: ExportedTable[] = [];
  let servers: FleetAggregate;
  let pass: Awaited<ReturnType<typeof foldFleet>>;
  let stale: string[] = [];
  let kept: string[] = [];
  try {
    const sinks = {
      sessions: open(SESSIONS),
      requests: open(REQUESTS),
      toolResults: open(TOOL_RESULTS),
      instructions: open(INSTRUCTIONS),
      tools: open(TOOLS),
    };
    let fleet: FleetAggregate;
    const fold = () => foldInto(targets, opts, plan, sinks);
    ({ fleet, pass } = await (bounds ? withReadBounds(bounds, fold) : fold()));
    servers = fleet;
    const serverSink = open(SERVERS);
    for (const r of fleet.rows()) await serverSink.add(r);
    const closing: Array<[string, TableSink<never>]> = [
      [SESSIONS.name, sinks.sessions],
      [REQUESTS.name, sinks.requests],
      [TOOL_RESULTS.name, sinks.toolResults],
      [INSTRUCTIONS.name, sinks.instructions],
      [TOOLS.name, sinks.tools],
      [SERVERS.name, serverSink as TableSink<never>],
    ];
    for (const [name, sink] of closing) written.push({ name, ...(await sink.close()), path: path(name) });
    for (const name of opened) renameSync(partial(name), path(name));
    ({ removed: stale, kept } = removeOtherFormat(dir, opened, ext));
  } catch (e) {
    for (const name of opened) rmSync(partial(name), { force: true });
    throw e;
  }
  const { health, warnings } = pass;
  const schemaPath = join(dir, "schema.json");
  try {
    rmSync(`${schemaPath}.partial`, { force: true });
    writeFileSync(`${schemaPath}.partial`, `${JSON.stringify(schemaDocument(format), null, 2)}\n`);
    renameSync(`${schemaPath}.partial`, schemaPath);
  } catch (e) {
    throw new RuntimeError(`${schemaPath}: ${(e as Error).message}`);
  }
  return {
    command: "export",
    ...(redactor ? { redactor } : {}),
    inputs: pass.inputs,
    health,
    data: { to: dir, format, sessions: servers.sessions, tables: written, schema: schemaPath, removed: stale },
    document: {
      title: `Export — ${servers.sessions} session(s) as ${format}`,
      summary: [
        ["to", dir],
        ["format", format],
        ["sessions", servers.sessions, "int"],
        ["schema", schemaPath],
      ],
      tables: [
        {
          id: "export",
          title: "Tables written",
          columns: [
            col("name", "table", "text", { priority: 1 }),
            col("rows", "rows", "int", { priority: 1 }),
            col("bytes", "size", "bytes", { priority: 2 }),
            col("path", "file", "path", { priority: 1 }),
          ],
          rows: written.map((w) => ({ ...w })),
        },
        healthTable(health),
      ],
      warnings: [
        ...warnings,
        ...(bounds?.notes() ?? []),
        ...(stale.length > 0
          ? [`removed ${stale.length} table file(s) of an earlier ${otherFormat(ext)} export: ${stale.join(", ")}`]
          : []),
        ...(kept.length > 0
          ? [
              `left ${kept.length} file(s) named as ${otherFormat(ext)} tables that no earlier export's schema.json claims (not removed; *.${otherFormat(ext)} would read them): ${kept.join(", ")}`,
            ]
          : []),
        ...healthWarnings(health),
      ],
    },
  };
}

/** `CCFORENSICS_EXPORT_ROW_GROUP=N`: rows per Parquet row group (tests use a few, to write many groups). */
function rowGroupFrom(env: NodeJS.ProcessEnv): number {
  const n = Number(env.CCFORENSICS_EXPORT_ROW_GROUP);
  return Number.isSafeInteger(n) && n > 0 ? n : ROW_GROUP;
}

/** Every session of the plan, its rows handed to `sinks`; the servers table's aggregate is returned, not yet written. */
async function foldInto(
  targets: string[],
  opts: ExportOptions,
  plan: ReturnType<typeof planFleet>,
  sinks: Sinks,
): Promise<{ fleet: FleetAggregate; pass: Awaited<ReturnType<typeof foldFleet>> }> {
  const fleet = new FleetAggregate("server");
  // One ledger of copies for the servers table and the row tables: a row marked a copy is one servers left out.
  const copies = new FleetCopies();
  const pass = await foldFleet(
    targets,
    opts,
    async (s, ev) => {
      const marks = copies.mark(s.facts);
      fleet.add(s.facts, marks);
      await writeSession(s, ev.transcripts.results.requests.requests, sinks, documentHealth(s.parts), marks, copies);
    },
    plan,
  );
  return { fleet, pass };
}

/**
 * The first pass of `export --redact`: the same rows, written nowhere, every text cell (and every input's
 * path) collected. stdin cannot be read twice, so `-` is refused with --redact. Its memory grows with the distinct
 * ids and paths it holds (about 0.55 KB each, docs/REFERENCE.md export), not with the row groups.
 */
async function collectTexts(targets: string[], opts: ExportOptions, plan: ReturnType<typeof planFleet>): Promise<Redactor> {
  const r = makeRedactor();
  const see = (s: string) => r.collect(s);
  const sinks: Sinks = {
    sessions: seeingSink(SESSIONS, see) as TableSink<never>,
    requests: seeingSink(REQUESTS, see) as TableSink<never>,
    toolResults: seeingSink(TOOL_RESULTS, see) as TableSink<never>,
    instructions: seeingSink(INSTRUCTIONS, see) as TableSink<never>,
    tools: seeingSink(TOOLS, see) as TableSink<never>,
  };
  const { fleet, pass } = await foldInto(targets, opts, plan, sinks);
  const servers = seeingSink(SERVERS, see);
  for (const row of fleet.rows()) await servers.add(row);
  for (const i of pass.inputs) see(i.path);
  return r;
}

type Sinks = {
  sessions: TableSink<never>;
  requests: TableSink<never>;
  toolResults: TableSink<never>;
  instructions: TableSink<never>;
  tools: TableSink<never>;
};

/**
 * One session's rows, table by table; each sink holds at most a row group before it flushes. A row that
 * copies one written before (a resume, a fork, the same session read twice) says which (`duplicate_of`,
 * `copied_calls`), so SQL that leaves those out gives the servers table's figures.
 */
async function writeSession(
  s: FleetSession,
  requests: Iterable<RequestRow>,
  sinks: Sinks,
  health: Pick<Health, "malformedCount" | "damagedCount">,
  marks: SessionCopies,
  copies: FleetCopies,
) {
  const session = s.composition.sessionId;
  const counts = { malformed: health.malformedCount, damaged: health.damagedCount };
  await sinks.sessions.add({ ...s.composition, transcript: s.outputs.transcript, debugLog: s.outputs.debugLog, ...counts } as never);
  for (const row of requests)
    await sinks.requests.add({ session, row, index: row.index, copyOf: copies.requestCopy(session, row) } as never);
  // facts.results and facts.instructions are these rows, in this order (assemble/fleet-session.ts).
  let i = 0;
  for (const row of s.outputs.rows)
    await sinks.toolResults.add({ session, row, index: ++i, copyOf: marks.results[i - 1] ?? null } as never);
  i = 0;
  for (const row of s.instructions)
    await sinks.instructions.add({ session, row, index: ++i, copyOf: marks.instructions[i - 1] ?? null } as never);
  i = 0;
  for (const row of s.facts.tools)
    await sinks.tools.add({ session, row, index: 0, copyOf: null, copiedCalls: marks.copiedCalls[i++] ?? 0 } as never);
}

export const exportCommand: CommandSpec = {
  command: "export [targets..]",
  describe:
    "normalized rows (sessions, requests, tool_results, instructions, tools, servers) as Parquet or NDJSON files for DuckDB and warehouse engines",
  // --redact reaches every text cell of every file (and the document), in one redaction: see collectTexts.
  common: [...OUTPUT, "strict", ...CONFIG_DIR, "subagents", ...FILTERS],
  examples: [
    ["ccforensics export --claude-dir samples/claude-home --to /tmp/ccf-export", "every sample session as Parquet files and a schema.json"],
    ["ccforensics export --since 30d --to pooled --as ndjson", "the last 30 days of ~/.claude as NDJSON"],
  ],
  positionals: {
    targets: {
      describe: "session ids or prefixes, or transcript paths (default: every session under the config dirs; - for stdin)",
      array: true,
    },
  },
  options: {
    to: { type: "string", describe: "folder to write the tables into (made when missing; never inside a Claude config dir)" },
    as: { choices: ["parquet", "ndjson"], describe: "file format (default parquet)" },
  },
  run: (argv) => runExport(argv.targets ?? [], argv as ExportOptions),
};
