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

/**
 * The kind of input the first lines of a file look like (`recogniseKind`), kinds in `passOver` aside: a line at a
 * time (a transcript's first line may be a snapshot), then together (a pretty-printed `claude -p` json).
 */
export function looksLike(heads: string[], passOver: EvidenceKind[] = []): EvidenceKind | null {
  const known = (k: EvidenceKind | null): k is EvidenceKind => k !== null && !passOver.includes(k);
  return heads.map(recogniseKind).find(known) ?? [recogniseKind(heads.join("\n"))].find(known) ?? null;
}

/** What each kind of input a file looks like is, and where it goes instead; null where there is nothing to say. */
const KIND_HINTS: Record<EvidenceKind, string | null> = {
  transcript: "a session transcript (give it as the target of requests/report)",
  "subagent-transcript": "a session transcript (give it as the target of requests/report)",
  "stream-json": "claude -p output (--output-format stream-json/json): pass it with --stream-json FILE",
  "debug-log": "a Claude Code debug log: pass it with --debug-file FILE, or read it with `debug`",
  "tools-list": "a tools/list response: pass it with --tools FILE",
  "rpc-log": "an MCP JSON-RPC message log: pass it with --rpc-log FILE, or read it with `rpc`",
  "tool-result": null,
};

export const kindHint = (kind: EvidenceKind): string | null => KIND_HINTS[kind];
