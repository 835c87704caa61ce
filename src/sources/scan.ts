import { countRecord, emptyHealth, type Health } from "../analyses/health.js";
import { parseLine } from "../records/json.js";
import { toRecord, type AnyRecord } from "../records/transcript.js";
import { readLines, type InputFile, type ReadOptions } from "./input.js";
import { collectAfterHugeLine, HUGE_LINE_BYTES } from "./memory.js";

export interface ScanOptions extends ReadOptions {
  /** Called after each chunk of lines with bytes read so far (progress display). */
  onProgress?: (file: string, bytes: number) => void;
}

/**
 * The one pass over transcript inputs: every physical line becomes a record (malformed ones too) and
 * goes to `sink` in file order. Health is counted here, so every command reports it the same way.
 */
export async function scanTranscripts(inputs: InputFile[], sink: (rec: AnyRecord) => void, opts: ScanOptions = {}): Promise<Health> {
  const health = emptyHealth();
  for (const input of inputs) {
    const chain = input.chain ?? "main";
    let bytes = 0;
    for await (const raw of readLines(input, opts)) {
      health.lines += 1;
      bytes += raw.bytes + 1;
      const pos = { file: input.path, line: raw.line };
      const parsed = parseLine(raw);
      let rec: AnyRecord;
      if (parsed.ok === "blank") {
        health.blankLines += 1;
        continue;
      } else if (parsed.ok) {
        rec = toRecord(parsed.value, pos, chain);
      } else {
        rec = { kind: "malformed", pos, chain, reason: parsed.reason, excerpt: parsed.excerpt };
      }
      countRecord(health, rec);
      sink(rec);
      if (raw.bytes >= HUGE_LINE_BYTES) collectAfterHugeLine();
      if (opts.onProgress && (raw.line & 0x3ff) === 0) opts.onProgress(input.path, bytes);
    }
  }
  return health;
}
