import type { InputKind } from "../sources/input.js";
import { debugLogSource } from "./debug.js";
import { rpcLogSource } from "./rpc.js";
import type { EvidenceKind } from "./source.js";
import { headlessSource } from "./streamjson.js";
import { toolResultSource } from "./tool-result-source.js";
import { toolsListSource } from "./tools-list.js";
import { subagentTranscriptSource, transcriptSource } from "./transcript-source.js";

/** Every Source, by the evidence kind it reads. Add an evidence kind here and the compiler shows where else it must go. */
export function sourceFor(kind: EvidenceKind) {
  switch (kind) {
    case "transcript":
      return transcriptSource;
    case "subagent-transcript":
      return subagentTranscriptSource;
    case "debug-log":
      return debugLogSource;
    case "rpc-log":
      return rpcLogSource;
    case "stream-json":
      return headlessSource;
    case "tools-list":
      return toolsListSource;
    case "tool-result":
      return toolResultSource;
    default:
      return kind satisfies never;
  }
}

/** The `inputs[].kind` of CONTRACT.md: a tools/list response is listed as `rpc-log` there. */
export function inputKindOf(kind: EvidenceKind): InputKind {
  switch (kind) {
    case "tools-list":
      return "rpc-log";
    case "transcript":
    case "subagent-transcript":
    case "debug-log":
    case "rpc-log":
    case "stream-json":
    case "tool-result":
      return kind;
    default:
      return kind satisfies never;
  }
}

/** Kinds tried when an input's kind is not known, most specific first (a saved tool result accepts anything). */
const SNIFF_ORDER: EvidenceKind[] = ["transcript", "stream-json", "debug-log", "tools-list", "rpc-log"];

/** The evidence kind the first bytes of an input look like, or null. */
export function recogniseKind(head: string): EvidenceKind | null {
  return SNIFF_ORDER.find((k) => sourceFor(k).recognise(head)) ?? null;
}
