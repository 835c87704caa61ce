import { isStreamedArray } from "./streamed.js";
import type { CommandOutput } from "./envelope.js";

/**
 * `--redact` (CONTRACT.md): home directories become `~`; session, message, request and tool-use ids and
 * `tool-results/` file names keep a short prefix followed by `…`. The same id maps to the same text
 * everywhere in one output, and two different ids never collapse into one: the prefix grows until
 * it is unique. Numbers are left alone.
 */
// A home dir starts a path: `/tmp/home/alice` is not one (nothing that can be part of a path name precedes it).
const HOME =
  /(?:(?<![\w.~/-])(?:\/Users\/[^/\s"'`\\]+|\/home\/[^/\s"'`\\]+|\/root(?=[/\s"'`]|$))|[A-Za-z]:\\{1,2}Users\\{1,2}[^\\\s"'`/]+)/g;

interface IdKind {
  re: RegExp;
  /** Characters always kept (the kind's prefix plus a few). */
  keep: number;
}

const ID_KINDS: IdKind[] = [
  { re: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, keep: 8 },
  { re: /\bmsg_[A-Za-z0-9]{8,}/g, keep: 8 },
  { re: /\breq_[A-Za-z0-9]{8,}/g, keep: 8 },
  { re: /\btoolu_[A-Za-z0-9]{8,}/g, keep: 10 },
  { re: /\bsrvtoolu_[A-Za-z0-9]{8,}/g, keep: 13 },
  // Bash output files and MCP token-check files in tool-results/ (FORMATS.md 6.4).
  { re: /(?<=tool-results[/\\])b[0-9a-z]{8}(?=\.txt)/g, keep: 4 },
  { re: /(?<=tool-results[/\\]mcp-[^\s"'`]*?-)\d{13}(?=\.[a-z0-9]+)/g, keep: 4 },
];

export function makeRedactor(): { collect(s: string): void; apply(s: string): string } {
  const ids = new Map<string, number>(); // id → keep
  return {
    collect(s) {
      for (const k of ID_KINDS) for (const m of s.matchAll(k.re)) ids.set(m[0], k.keep);
    },
    apply(s) {
      const table = shortNames(ids);
      let out = s.replace(HOME, "~");
      for (const k of ID_KINDS) out = out.replace(k.re, (m) => table.get(m) ?? m);
      return out;
    },
  };
}

let cache: { ids: Map<string, number>; table: Map<string, string> } | undefined;

/**
 * Shortest prefix per id (at least its kind's `keep`) that no other id shares. In sorted order the
 * longest prefix an id shares with any other is the one it shares with a neighbour, so this is
 * linear after the sort (a million request ids under --redact).
 */
function shortNames(ids: Map<string, number>): Map<string, string> {
  if (cache?.ids === ids && cache.table.size === ids.size) return cache.table;
  const table = new Map<string, string>();
  const sorted = [...ids.keys()].sort();
  sorted.forEach((id, i) => {
    const shared = Math.max(i > 0 ? commonPrefix(id, sorted[i - 1]!) : 0, i + 1 < sorted.length ? commonPrefix(id, sorted[i + 1]!) : 0);
    const n = Math.min(id.length, Math.max(Math.min(ids.get(id)!, id.length), i > 0 || i + 1 < sorted.length ? shared + 1 : 0));
    table.set(id, n >= id.length ? id : `${id.slice(0, n)}…`);
  });
  cache = { ids, table };
  return table;
}

function commonPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a.charCodeAt(n) === b.charCodeAt(n)) n++;
  return n;
}

function mapStrings<T>(v: T, f: (s: string) => string, depth = 0): T {
  if (depth > 64) return v;
  if (typeof v === "string") return f(v) as T;
  // A spooled row list becomes an array here: a redacted copy holds every string anyway.
  if (Array.isArray(v) || isStreamedArray(v)) return Array.from(v as Iterable<unknown>, (x) => mapStrings(x, f, depth + 1)) as T;
  if (v !== null && typeof v === "object") {
    const o: Record<string, unknown> = {};
    // Keys too: some maps are keyed by evidence (cwd → count, model → usage).
    for (const [k, x] of Object.entries(v)) o[f(k)] = mapStrings(x, f, depth + 1);
    return o as T;
  }
  return v;
}

/** A redacted copy of a command's output: data, report and input paths alike. */
export function redactOutput(out: CommandOutput): CommandOutput {
  const r = makeRedactor();
  mapStrings(out, (s) => {
    r.collect(s);
    return s;
  });
  return mapStrings(out, (s) => r.apply(s));
}
