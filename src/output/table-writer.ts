import { createWriteStream, type WriteStream } from "node:fs";
import { fileWriter, ParquetWriter } from "hyparquet-writer";
import { RuntimeError } from "../errors.js";
import { drained } from "../io.js";
import { jsonSafe } from "../render/emit.js";
import type { ExportColumn, ExportTable, ExportType } from "./export-tables.js";

export type ExportFormat = "parquet" | "ndjson";

/** One table being written: rows go in one at a time, at most a row group is held. */
export interface TableSink<R> {
  add(row: R): Promise<void>;
  close(): Promise<{ rows: number; bytes: number }>;
}

/** Rows per Parquet row group: what is held in memory per table before it is encoded and flushed. */
export const ROW_GROUP = 10_000;

/** What every text cell becomes before it is written (`export --redact`); the text as it is without one. */
export type TextMap = (s: string) => string;

export function openSink<R>(table: ExportTable<R>, path: string, format: ExportFormat, rowGroup = ROW_GROUP, text?: TextMap): TableSink<R> {
  return format === "parquet" ? parquetSink(table, path, rowGroup, text) : ndjsonSink(table, path, text);
}

/** A sink that writes nothing and hands each text cell to `see` (the first pass of `export --redact`). */
export function seeingSink<R>(table: ExportTable<R>, see: (s: string) => void): TableSink<R> {
  const cols = (table.columns as ExportColumn<R>[]).filter((c) => c.type === "string");
  let rows = 0;
  return {
    async add(row) {
      for (const col of cols) {
        const v = cell("string", col.get(row));
        if (typeof v === "string") see(v);
      }
      rows++;
    },
    async close() {
      return { rows, bytes: 0 };
    },
  };
}

/** A cell as the file holds it: ISO times as instants, counts as they are, anything else null. */
function cell(type: ExportType, v: unknown, text?: TextMap): unknown {
  if (v === null || v === undefined) return null;
  switch (type) {
    case "string": {
      const s = typeof v === "string" ? v : String(v);
      return text ? text(s) : s;
    }
    case "int":
      return typeof v === "number" && Number.isSafeInteger(v) ? v : null;
    case "double":
      return typeof v === "number" && Number.isFinite(v) ? v : null;
    case "bool":
      return typeof v === "boolean" ? v : null;
    case "timestamp": {
      const ms = typeof v === "string" ? Date.parse(v) : NaN;
      return Number.isNaN(ms) ? null : ms;
    }
    default:
      return type satisfies never;
  }
}

const PARQUET_TYPE: Record<ExportType, Record<string, unknown>> = {
  string: { type: "BYTE_ARRAY", converted_type: "UTF8" },
  int: { type: "INT64" },
  double: { type: "DOUBLE" },
  bool: { type: "BOOLEAN" },
  timestamp: { type: "INT64", converted_type: "TIMESTAMP_MILLIS" },
};

function parquetSink<R>(table: ExportTable<R>, path: string, rowGroup: number, text?: TextMap): TableSink<R> {
  const cols = table.columns as ExportColumn<R>[];
  const schema = [
    { name: "root", num_children: cols.length },
    ...cols.map((col) => ({ name: col.name, repetition_type: "OPTIONAL", ...PARQUET_TYPE[col.type] })),
  ];
  const out = fileWriter(path);
  const writer = new ParquetWriter({ writer: out, schema: schema as never, createdBy: "ccforensics export" });
  let buffer: unknown[][] = cols.map(() => []);
  let held = 0;
  let rows = 0;
  const flush = async () => {
    if (held === 0) return;
    const columnData = cols.map((col, i) => ({
      name: col.name,
      data: col.type === "int" || col.type === "timestamp" ? buffer[i]!.map((v) => (v === null ? null : BigInt(v as number))) : buffer[i]!,
    }));
    buffer = cols.map(() => []);
    held = 0;
    await writer.write({ columnData: columnData as never, rowGroupSize: rowGroup });
  };
  return {
    async add(row) {
      cols.forEach((col, i) => buffer[i]!.push(cell(col.type, col.get(row), text)));
      held++;
      rows++;
      if (held >= rowGroup) await guard(path, flush());
    },
    async close() {
      await guard(
        path,
        flush().then(() => writer.finish()),
      );
      return { rows, bytes: out.offset };
    },
  };
}

function ndjsonSink<R>(table: ExportTable<R>, path: string, text?: TextMap): TableSink<R> {
  const cols = table.columns as ExportColumn<R>[];
  const stream: WriteStream = createWriteStream(path);
  let error: Error | undefined;
  stream.on("error", (e) => (error = e));
  let rows = 0;
  let pending = "";
  const drain = async () => {
    if (error) throw new RuntimeError(`${path}: ${error.message}`);
    if (!stream.write(pending)) await drained(stream);
    pending = "";
  };
  return {
    async add(row) {
      const o: Record<string, unknown> = {};
      for (const col of cols) {
        const v = cell(col.type, col.get(row), text);
        o[col.name] = col.type === "timestamp" && v !== null ? new Date(v as number).toISOString() : v;
      }
      // Evidence text (names, paths, log lines) escaped as stdout's JSON is: no C1, bidi or invisible character raw.
      pending += `${jsonSafe(JSON.stringify(o))}\n`;
      rows++;
      if (pending.length >= 1 << 16) await drain();
    },
    async close() {
      if (pending) await drain();
      await new Promise<void>((res, rej) => stream.end((e?: Error | null) => (e ? rej(new RuntimeError(`${path}: ${e.message}`)) : res())));
      if (error) throw new RuntimeError(`${path}: ${error.message}`);
      return { rows, bytes: stream.bytesWritten };
    },
  };
}

async function guard(path: string, p: Promise<unknown> | unknown): Promise<void> {
  try {
    await p;
  } catch (e) {
    throw new RuntimeError(`${path}: ${(e as Error).message}`);
  }
}
