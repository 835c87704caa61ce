import { writeFileSync } from "node:fs";
import { resolve, sep } from "node:path";
import { RuntimeError, UsageError } from "../errors.js";
import type { OutputFile } from "../report/envelope.js";
import type { ChartSpec } from "../report/model.js";
import { configDirHolding } from "../sources/discover.js";

/**
 * Writes a chart to `path` (relative to the CLI's cwd). Refuses paths inside a Claude config dir: evidence is read-only.
 */
export async function writeChart(path: string, spec: ChartSpec, configDirs: string[], cwd: string): Promise<void> {
  const abs = resolve(cwd, path);
  const holder = configDirHolding(abs, configDirs);
  if (holder !== undefined) throw new UsageError(`--chart ${path}: refusing to write inside the Claude config dir ${holder}`);
  if (!/\.svg$/i.test(abs)) throw new UsageError(`--chart ${path}: give a file name ending in .svg`);
  // vega and the chart code load only when a chart is written.
  const svg = await (await import("../render/chart.js")).renderSvg(spec);
  try {
    writeFileSync(abs, svg);
  } catch (e) {
    throw new RuntimeError(`--chart ${path}: ${(e as Error).message}`);
  }
}

/** Config dirs to protect: the ones searched, plus the one each transcript input lives in (`<dir>/projects/…`). */
export function protectedDirs(searched: string[], inputPaths: string[]): string[] {
  const out = new Set(searched);
  for (const p of inputPaths) {
    const parts = resolve(p).split(sep);
    const i = parts.lastIndexOf("projects");
    if (i > 0) out.add(parts.slice(0, i).join(sep) || sep);
  }
  return [...out];
}

/** The output step's files, written before the document so a refused path fails before stdout is used. */
export async function writeFiles(files: OutputFile[], cwd: string): Promise<void> {
  for (const f of files) {
    switch (f.kind) {
      case "chart":
        await writeChart(f.path, f.spec, f.protect, cwd);
        break;
      default:
        f.kind satisfies never;
    }
  }
}
