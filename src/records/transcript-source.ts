import type { RecordFacts } from "./health.js";
import { parseLine } from "./json.js";
import { decodeLines, type BlankLine, type EvidenceKind, type LineDecoder, type Source } from "./source.js";
import { ChainSplitter, type ChainHome } from "./chains.js";
import { toRecord, type AnyRecord } from "./transcript.js";

/** Transcript JSONL (FORMATS.md 4): one JSON object per physical line; bad lines become `malformed` records of the chain. */
function transcriptDecoder(file: string, home: ChainHome): LineDecoder<AnyRecord> {
  const chain = home.chain;
  const split = new ChainSplitter(home);
  return {
    line(raw, out) {
      const pos = { file, line: raw.line };
      const parsed = parseLine(raw);
      if (parsed.ok === "blank") out.push({ kind: "blank", pos } satisfies BlankLine);
      else if (parsed.ok) {
        const rec = toRecord(parsed.value, pos, chain);
        rec.chain = split.chainOf(rec);
        out.push(rec);
      } else out.push({ kind: "malformed", pos, chain, reason: parsed.reason, excerpt: parsed.excerpt });
    },
    end() {},
  };
}

/** Every record kind is named here, so a new one must say what health learns from it. */
function facts(rec: AnyRecord): RecordFacts | undefined {
  switch (rec.kind) {
    case "assistant":
      return { invalid: rec.invalid, notRequest: rec.notRequest };
    case "user":
    case "attachment":
    case "system":
    case "progress":
    case "content-replacement":
    case "meta":
      return { invalid: rec.invalid };
    case "unknown":
      return { unknownType: rec.type, invalid: rec.invalid };
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
    recognise: (head) => TRANSCRIPT_HEAD.test(head.split("\n", 1)[0] ?? ""),
    records: (chunks, input) => {
      const chain = input.chain ?? "main";
      const home = { chain, sessionId: input.sessionId, agentId: kind === "subagent-transcript" ? chain : undefined };
      return decodeLines(chunks, transcriptDecoder(input.file, home));
    },
    facts,
  };
}

export const transcriptSource = transcriptKind("transcript");
export const subagentTranscriptSource = transcriptKind("subagent-transcript");
