import { packageInfo } from "../package-root.js";
import type { Health } from "../records/health.js";
import type { InputFile } from "../sources/input.js";
import type { ChartSpec, OutputDocument } from "./model.js";

/** The tool's own version, from its package.json. */
export function toolVersion(): string {
  return packageInfo().version;
}

/** What every command returns: the domain results for JSON, and the neutral document (tables) for the other formats. */
export interface CommandOutput {
  command: string;
  inputs: InputFile[];
  health: Health;
  /** Command fields of the JSON envelope (CONTRACT.md), e.g. `{ requests, totals }`. */
  data: Record<string, unknown>;
  document: OutputDocument;
  /** Set when the command printed its document but failed at run time (e.g. a `claude` run exited non-zero): exit 1. */
  failure?: string;
  /** One line for stderr after the document: what to try next (`demo`). */
  next?: string;
  /** Files the output step writes beside the document (`--chart`); commands never write files themselves. */
  files?: OutputFile[];
  /** `--redact` only: the redaction (report/redact.ts Redactor) the command's own files were written with, for the document to share. */
  redactor?: { collect(s: string): void; apply(s: string): string };
}

/**
 * A file to write: what it holds and where (relative to the CLI's cwd). The output step guards it as every
 * write is guarded (output/write-guard.ts); `protect` adds config dirs only the command knows of.
 */
export interface OutputFile {
  kind: "chart";
  path: string;
  spec: ChartSpec;
  protect?: string[];
}

/** The JSON envelope of CONTRACT.md: tool, command, inputs, health, then the command's fields. */
export function envelope(out: CommandOutput): Record<string, unknown> {
  return {
    tool: { name: "ccforensics", version: toolVersion() },
    command: out.command,
    inputs: out.inputs.map((i) => ({
      path: i.path,
      kind: i.kind,
      bytes: i.bytes,
      sha256: i.sha256,
      ...(i.chain ? { chain: i.chain } : {}),
    })),
    health: out.health,
    ...out.data,
  };
}
