import { closeSync, writeSync } from "node:fs";
import { RuntimeError, UsageError } from "../errors.js";
import type { OutputFile } from "../report/envelope.js";
import type { ChartSpec } from "../report/model.js";
import { checkWritable, openForWrite, type WriteContext } from "./write-guard.js";

/**
 * Writes a chart to `path` (relative to the CLI's cwd). Evidence is read-only: the shared write guard
 * (write-guard.ts) refuses a config dir or an evidence tree, symlinks followed.
 */
export async function writeChart(path: string, spec: ChartSpec, ctx: WriteContext): Promise<void> {
  if (!/\.svg$/i.test(path)) throw new UsageError(`--chart ${path}: give a file name ending in .svg`);
  const target = checkWritable("--chart", path, "file", ctx);
  // vega and the chart code load only when a chart is written.
  const svg = await (await import("../render/chart.js")).renderSvg(spec);
  try {
    const fd = openForWrite(target);
    try {
      writeSync(fd, svg);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    throw new RuntimeError(`--chart ${path}: ${(e as Error).message}`);
  }
}

/**
 * The output step's files, written before the document so a refused path fails before stdout is used.
 * `ctx` is the run's (its env, cwd, --claude-dir and inputs); a file adds the config dirs its command knows of.
 */
export async function writeFiles(files: OutputFile[], ctx: WriteContext): Promise<void> {
  for (const f of files) {
    switch (f.kind) {
      case "chart":
        await writeChart(f.path, f.spec, { ...ctx, alsoProtect: [...(ctx.alsoProtect ?? []), ...(f.protect ?? [])] });
        break;
      default:
        f.kind satisfies never;
    }
  }
}
