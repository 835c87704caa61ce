import { createHash } from "node:crypto";
import { isStreamedArray } from "./streamed.js";
import type { CommandOutput } from "./envelope.js";

/**
 * `--redact` (CONTRACT.md): home directories become `~` (and so does a home dir in a project folder's
 * name, `-home-dev-my-app` → `~-my-app`: exactly once the home dir itself was seen in the output, else
 * where a folder name starts with `-home-<user>`, `-Users-<user>`, `C--Users-<user>` or `-root`); session, message, request and tool-use ids and
 * `tool-results/` file names keep a short prefix followed by `…`. The same id maps to the same text
 * everywhere in one output, and two different ids never collapse into one. Numbers are left alone.
 *
 * The rule for an id's text (`keep` is its kind's usual length: 8 for a session id, `msg_`, `req_`,
 * 10 for `toolu_`, 4 for a saved file's name):
 * - its prefix, grown past `keep` until no other id in the output shares it: `msg_01DnAa…`, as long as
 *   that stays within `keep + 8` characters and hides at least the last 4 (the common case: ids
 *   differ early);
 * - else the first `keep` characters, `…`, and the shortest tail of at least 4 characters that no
 *   other id with those first characters ends with: `abcdef12…0001` and `abcdef12…0002` for two
 *   session ids that differ only at the end;
 * - and if even that would leave fewer than 4 hidden, the first `keep`, `…#` and the first hex
 *   digits of the id's SHA-256 (4 or more, until unique in the group): `bk3v…#7516` and `bk3v…#652a`
 *   for `bk3v9x2qa.txt` and `bk3v9x2qb.txt`. `#` is in no id, and a prefix form ends in `…` where
 *   the others do not, so the three forms never meet; within a form, a unique prefix, a tail no
 *   other id of the group ends with, or distinct digests keep two ids apart. The same set of ids
 *   gives the same texts: nothing depends on the order they were met in.
 * No form prints a whole id. A saved file's name is found after `tool-results/` (and an MCP one,
 * `mcp-<server>-<tool>-<ms>.<ext>`, anywhere), then redacted wherever it stands: bare in a column,
 * at the start of a string, or cut by a summary's `…` (a cut tail of any id, 6 characters or more,
 * is dropped: `…k3v9x2qa.txt` → `….txt`).
 */
// A home dir starts a path: `/tmp/home/alice` is not one (nothing that can be part of a path name precedes it).
const HOME =
  /(?:(?:(?<![\w.~/-])|(?<=\bfile:\/\/))(?:\/Users\/[^/\s"'`\\]+|\/home\/[^/\s"'`\\]+|\/root(?=[/\s"'`]|$))|[A-Za-z]:\\{1,2}Users\\{1,2}[^\\\s"'`/]+)/g;

interface IdKind {
  /** Where an id of this kind is recognised (collected). */
  re: RegExp;
  /** Where a collected id is replaced, when wider than `re`: only ids already collected are touched. */
  use?: RegExp;
  /** Characters always kept (the kind's prefix plus a few). */
  keep: number;
}

const ID_KINDS: IdKind[] = [
  { re: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, keep: 8 },
  { re: /\bmsg_[A-Za-z0-9]{8,}/g, keep: 8 },
  { re: /\breq_[A-Za-z0-9]{8,}/g, keep: 8 },
  { re: /\btoolu_[A-Za-z0-9]{8,}/g, keep: 10 },
  { re: /\bsrvtoolu_[A-Za-z0-9]{8,}/g, keep: 13 },
  // The other tool-results/ names (FORMATS.md 6.4); `toolu_<id>` and `pdf-<uuid>/` are ids above.
  // Bash/PowerShell output files: `b` and 8 base36 is also an English word, so only after tool-results/.
  {
    re: /(?<=tool-results[/\\])b[0-9a-z]{8}(?=\.txt)/g,
    use: /(?<![A-Za-z0-9_])b[0-9a-z]{8}(?![A-Za-z0-9_])/g,
    keep: 4,
  },
  // MCP token-check files: the 13-digit ms stamp, in a name that starts `mcp-` or follows tool-results/.
  {
    // The lookahead first: the lookbehind's scan back over `[\w-]*?` at every digit was quadratic.
    re: /(?=\d{13}\.[a-z0-9])(?<=(?:tool-results[/\\]|(?<![\w.-]))mcp-[\w-]*?-)\d{13}(?=\.[a-z0-9]+)/g,
    // Bare, an extension must follow (a letter first): `1789422257974.5` is a number.
    use: /(?<!\d)\d{13}(?=\.[a-z])/g,
    keep: 4,
  },
  // MCP binary content, `<id>.<ext>`: any other name of 8 characters or more right after tool-results/.
  {
    re: /(?<=tool-results[/\\])(?!mcp-|toolu_|srvtoolu_|pdf-|b[0-9a-z]{8}\.txt|[0-9a-f]{8}-[0-9a-f]{4}-)[A-Za-z0-9_-]{8,}(?=\.[A-Za-z0-9]+)/g,
    use: /(?<![\w-])[A-Za-z0-9_-]{8,}(?=\.[A-Za-z])/g,
    keep: 4,
  },
];

/**
 * The head of an id a cut ended (an excerpt's `…`), `5eed1234-aaaa-4bbb-8ccc-01234567…`: longer than its kind
 * keeps, it becomes that kind's first characters and `…`, whether or not the whole id is elsewhere in the output.
 */
const CUT_HEAD = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{9,}(?=…)/g;
/** Where each id kind starts, for a cut head whose whole id is nowhere else: its `keep`. */
const HEAD_KINDS: Array<[RegExp, number]> = [
  [/^[0-9a-f]{8}-/i, 8],
  [/^(?:msg|req)_/, 8],
  [/^toolu_/, 10],
  [/^srvtoolu_/, 13],
];

/** The tail of an id a summary cut (`…` then id characters): dropped when it ends some collected id. */
const CUT = /…([A-Za-z0-9_-]{6,})/g;

/**
 * A home dir as Claude Code spells it in a project folder's name (`/home/dev` → `-home-dev`, every
 * character but a letter or digit a `-`): `projects/-home-dev-my-app/` names the user too.
 */
function projectKeys(homes: Set<string>): RegExp | undefined {
  if (homes.size === 0) return undefined;
  const keys = [...new Set([...homes].map((h) => h.replace(/[^A-Za-z0-9]/g, "-")))].sort((a, b) => b.length - a.length);
  return new RegExp(`(?<![\\w.~-])(?:${keys.join("|")})(?![A-Za-z0-9])`, "g");
}

/**
 * A project folder's name that starts with a home dir (`-Users-alice-work-proj`, `-home-alice-proj`,
 * `C--Users-alice-proj`, `-root-proj`), where a folder name starts (after `/` or `\\`, or a whole value):
 * the user's name is in it even when the home dir itself is nowhere in the output. Its first segment
 * after `Users`/`home` is taken as the user's (a name with a `-` or `.` in it, `-home-jo-ann-x`, keeps
 * the rest: the key does not say where the name ends).
 */
const HOME_KEY = /(?:(?<=[/\\])|^)(?:-(?:Users|home)-[A-Za-z0-9]+|[A-Za-z]--Users-[A-Za-z0-9]+|-root)(?=-|[/\\]|$)/gm;

/** One redaction: `collect` every text first, then `apply` gives each its redacted form. */
export interface Redactor {
  collect(s: string): void;
  apply(s: string): string;
}

export function makeRedactor(): Redactor {
  const ids = new Map<string, number>(); // id → keep
  const kinds = new Map<string, IdKind>(); // id → the kind that found it: a wide `use` replaces only its own
  const homes = new Set<string>(); // home dirs seen, for the project folders named after them
  let keys: { size: number; re: RegExp | undefined } = { size: 0, re: undefined };
  return {
    collect(s) {
      for (const m of s.matchAll(HOME)) homes.add(m[0]);
      for (const k of ID_KINDS)
        for (const m of s.matchAll(k.re)) {
          // A cut one (`…` right after it) is no id of its own: CUT_HEAD shortens it.
          if (s.charCodeAt(m.index + m[0].length) === 0x2026) continue;
          ids.set(m[0], k.keep);
          kinds.set(m[0], k);
        }
    },
    apply(s) {
      const table = shortNames(ids);
      let out = s.replace(HOME, "~");
      if (keys.size !== homes.size) keys = { size: homes.size, re: projectKeys(homes) };
      if (keys.re !== undefined) out = out.replace(keys.re, "~");
      out = out.replace(HOME_KEY, "~");
      if (out.includes("…")) {
        out = out.replace(CUT, (m, tail: string) => (!table.has(tail) && endsSomeId(ids, tail) ? "…" : m));
        out = out.replace(CUT_HEAD, (head) => {
          if (ids.has(head)) return head;
          const keep = startsSomeId(ids, head) ?? HEAD_KINDS.find(([re]) => re.test(head))?.[1];
          return keep !== undefined && head.length > keep ? head.slice(0, keep) : head;
        });
      }
      for (const k of ID_KINDS)
        out = out.replace(k.use ?? k.re, (m) => (k.use === undefined || kinds.get(m) === k ? (table.get(m) ?? m) : m));
      return out;
    },
  };
}

let cache: { ids: Map<string, number>; table: Map<string, string> } | undefined;
let reversed: { ids: Map<string, number>; size: number; sorted: string[] } | undefined;

/** Whether `tail` is the end of a longer collected id (binary search over the reversed ids). */
function endsSomeId(ids: Map<string, number>, tail: string): boolean {
  if (reversed?.ids !== ids || reversed.size !== ids.size) {
    reversed = { ids, size: ids.size, sorted: [...ids.keys()].map(rev).sort() };
  }
  const { sorted } = reversed;
  const t = rev(tail);
  const lo = lowerBound(sorted, t);
  return lo < sorted.length && sorted[lo]!.startsWith(t) && sorted[lo]!.length > t.length;
}

let sortedIds: { ids: Map<string, number>; size: number; sorted: string[] } | undefined;

/** The `keep` of a longer collected id that `head` starts, if any. */
function startsSomeId(ids: Map<string, number>, head: string): number | undefined {
  if (sortedIds?.ids !== ids || sortedIds.size !== ids.size) sortedIds = { ids, size: ids.size, sorted: [...ids.keys()].sort() };
  const { sorted } = sortedIds;
  const lo = lowerBound(sorted, head);
  const id = sorted[lo];
  return id !== undefined && id.startsWith(head) && id.length > head.length ? ids.get(id) : undefined;
}

/** The first index of `sorted` whose string is not below `key`. */
function lowerBound(sorted: string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function rev(s: string): string {
  return [...s].reverse().join("");
}

/** How far past `keep` a prefix may grow, and how many characters it must leave hidden. */
const GROW = 8;
const HIDE = 4;
const TAIL = 4;

/**
 * Each id's text, by the rule above. In sorted order the longest prefix an id shares with any other is
 * the one it shares with a neighbour, and likewise for tails in the order of the reversed ids, so this
 * is linear after the sorts (a million request ids under --redact); only the rare ids that need a tail
 * have their group (the ids sharing their first `keep` characters) sorted again.
 */
function shortNames(ids: Map<string, number>): Map<string, string> {
  if (cache?.ids === ids && cache.table.size === ids.size) return cache.table;
  const table = new Map<string, string>();
  const sorted = [...ids.keys()].sort();
  const needTail: string[] = [];
  sorted.forEach((id, i) => {
    const keep = Math.min(ids.get(id)!, id.length);
    const shared = Math.max(i > 0 ? commonPrefix(id, sorted[i - 1]!) : 0, i + 1 < sorted.length ? commonPrefix(id, sorted[i + 1]!) : 0);
    const n = Math.max(keep, shared + 1);
    if (n <= keep + GROW && n <= id.length - HIDE) table.set(id, `${id.slice(0, n)}…`);
    else needTail.push(id);
  });
  // The ids that need a tail, by group (the ids sharing the first `keep` characters: a run in sorted
  // order). Every id of the group counts, prefix forms included: more than distinctness needs, and
  // simpler to check.
  const hashed = new Map<string, string[]>(); // head → ids shown by hash
  const tails = new Map<string, Map<string, number>>(); // head → id → tail length
  for (const id of needTail) {
    const head = id.slice(0, Math.min(ids.get(id)!, id.length));
    let t = tails.get(head);
    if (t === undefined) tails.set(head, (t = tailLengths(sorted, head)));
    const n = t.get(id)!;
    if (head.length + n <= id.length - HIDE) table.set(id, `${head}…${id.slice(id.length - n)}`);
    else (hashed.get(head) ?? hashed.set(head, []).get(head)!).push(id);
  }
  for (const [head, group] of hashed) {
    const digests = group.map((id) => createHash("sha256").update(id).digest("hex"));
    let n = TAIL;
    while (n < 64 && new Set(digests.map((d) => d.slice(0, n))).size < digests.length) n++;
    group.forEach((id, i) => table.set(id, `${head}…#${digests[i]!.slice(0, n)}`));
  }
  cache = { ids, table };
  return table;
}

/** For each id starting with `head`: the shortest tail (at least TAIL) that no other such id ends with. */
function tailLengths(sorted: string[], head: string): Map<string, number> {
  const lo = lowerBound(sorted, head);
  let end = lo;
  while (end < sorted.length && sorted[end]!.startsWith(head)) end++;
  const group = sorted.slice(lo, end).map((id) => ({ id, r: rev(id) }));
  group.sort((x, y) => (x.r < y.r ? -1 : x.r > y.r ? 1 : 0));
  const out = new Map<string, number>();
  group.forEach(({ id, r }, i) => {
    const shared = Math.max(i > 0 ? commonPrefix(r, group[i - 1]!.r) : 0, i + 1 < group.length ? commonPrefix(r, group[i + 1]!.r) : 0);
    out.set(id, Math.max(TAIL, shared + 1));
  });
  return out;
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

/**
 * A redacted copy of a command's output: data, report and input paths alike. A command that wrote
 * redacted files (`export --redact`) hands over its redactor, so the document shows the files' forms.
 */
export function redactOutput(full: CommandOutput): CommandOutput {
  const { redactor, ...out } = full;
  const r = redactor ?? makeRedactor();
  mapStrings(out, (s) => {
    r.collect(s);
    return s;
  });
  return mapStrings(out, (s) => r.apply(s));
}
