import type { Options } from "yargs";
import type { InstructionsOptions } from "../assemble/instructions.js";
import { compileProbe, DEFAULT_PROBE_SOURCES } from "../analyses/probe.js";
import { UsageError } from "../errors.js";

/** The probe and wrapper-token flags, one definition for `instructions`, `report` and anything else that joins instructions. */
export interface ProbeCliOptions {
  probeBegin?: string;
  probeEnd?: string;
  probeMarker?: string;
  wrapperTokens?: number;
  baseline?: string;
}

export const PROBE_OPTIONS: Record<string, Options> = {
  "probe-begin": {
    type: "string",
    describe: `regex for the opening codeword (value: named or first group); default ${DEFAULT_PROBE_SOURCES.begin}`,
  },
  "probe-end": { type: "string", describe: `regex for the closing codeword; default ${DEFAULT_PROBE_SOURCES.end}` },
  "probe-marker": { type: "string", describe: `regex for a position marker with a number; default ${DEFAULT_PROBE_SOURCES.marker}` },
  "wrapper-tokens": {
    type: "number",
    describe: "tokens of heading + wrapper to take off the baseline delta for text chars/token (the write-up measured ≈51)",
  },
};

/** Checks the flags and compiles the probe; a bad regex or a non-number is a usage error (exit 2) everywhere. */
export function instructionsOptions(opts: ProbeCliOptions): InstructionsOptions {
  let probe;
  try {
    probe = compileProbe({ begin: opts.probeBegin, end: opts.probeEnd, marker: opts.probeMarker });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (opts.wrapperTokens !== undefined && !Number.isFinite(opts.wrapperTokens)) throw new UsageError("--wrapper-tokens needs a number");
  if (opts.wrapperTokens !== undefined && !opts.baseline) throw new UsageError("--wrapper-tokens needs --baseline");
  return { probe, wrapperTokens: opts.wrapperTokens ?? null };
}
