import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { ROOT } from "../helpers.js";

export interface Sample {
  /** Path relative to the repository, for messages. */
  rel: string;
  name: string;
  bytes: Buffer;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

const ALL = walk(join(ROOT, "samples"))
  .map((p) => relative(ROOT, p).split("\\").join("/"))
  .filter((r) => !r.endsWith(".md"));

function load(pred: (rel: string) => boolean): Sample[] {
  return ALL.filter(pred)
    .sort()
    .map((rel) => ({ rel, name: basename(rel), bytes: readFileSync(join(ROOT, rel)) }));
}

// The biggest transcripts are left out: mutations over 20 small files find more per second than over one 400 KB file.
export const TRANSCRIPTS = load(
  (r) =>
    r.endsWith(".jsonl") &&
    (r.includes("/projects/") || r.startsWith("samples/basic/") || r.startsWith("samples/damaged/")) &&
    statSync(join(ROOT, r)).size < 200_000,
);
export const DEBUG_LOGS = load((r) => r.endsWith(".txt") && (r.includes("/debug/") || /\/debug[^/]*\.txt$/.test(r)));
export const RPC_LOGS = load(
  (r) => r.startsWith("samples/logs/rpc/") || r.endsWith("/rpc-log.jsonl") || r.includes("/mcp-logs-") || r.endsWith("rpc-tap.jsonl"),
);
export const STREAM_JSON = load(
  (r) => r.endsWith(".stream.jsonl") || r.endsWith("/stream.jsonl") || r.startsWith("samples/logs/claude-p/"),
);

/** A clean session to hang mutated side evidence (--debug-file, --rpc-log, --stream-json) on. */
export const DEMO_SESSION = "samples/claude-home/projects/-tmp-lab-demo/c0ffee00-1111-4222-8333-444444444444.jsonl";

/** `claude -p` output that is JSONL (stream-json) rather than one JSON document (`--output-format json`). */
export const STREAM_JSONL = STREAM_JSON.filter((s) => s.rel.endsWith(".jsonl"));
export const CLAUDE_P_JSON = STREAM_JSON.filter((s) => s.rel.endsWith(".json"));
