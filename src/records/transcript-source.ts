import type { RecordFacts } from "./health.js";
import { MAX_DEPTH, parseLine, type LineDamage, type ParsedLine } from "./json.js";
import { decodeLines, pastCrashRemnant, type BlankLine, type EvidenceKind, type LineDecoder, type Source } from "./source.js";
import { StreamScanner, type ScannedLine } from "./stream-scan.js";
import { ChainSplitter, type ChainHome } from "./chains.js";
import { toRecord, type AnyRecord } from "./transcript.js";

/**
 * Lines longer than this are scanned as they stream, never held whole: holding a 400 MiB line cost its
 * bytes, a copy for the string scanner and the decoded strings (0.9-2 GB peak), and a line past the parse
 * cap could not be read at all. Measured on one 20 MiB line, the scan costs the same CPU as the skeleton
 * parse and 40 MB less peak memory; the bench's 200 MB file (lines up to 4.8 MB) never reaches it.
 */
export const STREAM_LINE_BYTES = 8 * 1024 * 1024;

/** What health learns from a record's line: scanned as it streamed, read despite damage (not a field of the record: rows stay as they are). */
interface LineFacts {
  scanned?: { bytes: number; textKept: boolean };
  damaged?: LineDamage[];
}
const lineFacts = new WeakMap<object, LineFacts>();

/** Transcript JSONL (FORMATS.md 4): one JSON object per physical line; bad lines become `malformed` records of the chain. */
function transcriptDecoder(file: string, home: ChainHome, streamAt: number): LineDecoder<AnyRecord> {
  const chain = home.chain;
  const split = new ChainSplitter(home);
  return {
    line(raw, out) {
      const pos = { file, line: raw.line };
      const scanned = raw.streamed as ScannedLine | undefined;
      const parsed: ParsedLine = scanned ? scanned.parsed : parseLine(raw);
      if (parsed.ok === "blank") out.push({ kind: "blank", pos } satisfies BlankLine);
      else if (parsed.ok) {
        const rec = toRecord(parsed.value, pos, chain);
        rec.chain = split.chainOf(rec);
        if (scanned || parsed.damage)
          lineFacts.set(rec, {
            scanned: scanned ? { bytes: raw.bytes, textKept: scanned.textKept } : undefined,
            damaged: parsed.damage,
          });
        out.push(rec);
      } else out.push({ kind: "malformed", pos, chain, reason: parsed.reason, excerpt: parsed.excerpt });
    },
    end() {},
    stream: { at: streamAt, open: (_line, offset) => new StreamScanner({ file, offset, maxDepth: MAX_DEPTH }) },
  };
}

/**
 * Every record kind is named here, so a new one must say what health learns from it. A record with nothing
 * to add (most of them) gives undefined, which health counts the same as empty facts, with no object made.
 */
function facts(rec: AnyRecord): RecordFacts | undefined {
  switch (rec.kind) {
    case "assistant": {
      const line = lineFacts.get(rec);
      if (rec.invalid.length === 0 && rec.notRequest === undefined && line === undefined) return undefined;
      return { invalid: rec.invalid, notRequest: rec.notRequest, scanned: line?.scanned, damaged: line?.damaged };
    }
    case "user":
    case "attachment":
    case "system":
    case "progress":
    case "content-replacement":
    case "meta": {
      const line = lineFacts.get(rec);
      if (rec.invalid.length === 0 && line === undefined) return undefined;
      return { invalid: rec.invalid, scanned: line?.scanned, damaged: line?.damaged };
    }
    case "unknown": {
      const line = lineFacts.get(rec);
      return { unknownType: rec.type, invalid: rec.invalid, scanned: line?.scanned, damaged: line?.damaged };
    }
    case "malformed":
      return undefined;
    default:
      return rec satisfies never;
  }
}

/** A transcript's first line is a JSON object with the envelope keys of FORMATS.md 4.3 (`claude -p` events have `session_id`, no `parentUuid`). */
const TRANSCRIPT_HEAD = /^\s*\{.*"(?:parentUuid|isSidechain|sessionId|leafUuid)"\s*:/;

function transcriptKind(kind: Extract<EvidenceKind, "transcript" | "subagent-transcript">): Source<AnyRecord> {
  return {
    kind,
    // A crash's NUL run may open the file (the reader skips it: records/json.ts nulRuns).
    recognise: (head) => TRANSCRIPT_HEAD.test(pastCrashRemnant(head).split("\n", 1)[0] ?? ""),
    records: (chunks, input) => {
      const chain = input.chain ?? "main";
      const home = { chain, sessionId: input.sessionId, agentId: kind === "subagent-transcript" ? chain : undefined };
      return decodeLines(chunks, transcriptDecoder(input.file, home, input.streamLineBytes ?? STREAM_LINE_BYTES));
    },
    facts,
  };
}

export const transcriptSource = transcriptKind("transcript");
export const subagentTranscriptSource = transcriptKind("subagent-transcript");
