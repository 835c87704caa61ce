import { isCount } from "../report/model.js";

/** Session (and other) UUIDs, message, request and tool-use ids: what a reader matches by prefix. */
const ID =
  /\b(?:srvtoolu_[A-Za-z0-9]{8,}|toolu_[A-Za-z0-9]{8,}|msg_[A-Za-z0-9]{8,}|req_[A-Za-z0-9]{8,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b)/gi;

/** Characters kept at least: the kind's own prefix plus eight of the id proper. */
function keepOf(id: string): number {
  const m = /^(srvtoolu_|toolu_|msg_|req_)/i.exec(id);
  return (m?.[1]!.length ?? 0) + 8;
}

export function idLabel(id: string): string {
  if (/^(?:srv)?toolu_/i.test(id)) return "tool use";
  if (/^msg_/i.test(id)) return "message";
  if (/^req_/i.test(id)) return "request";
  return "id";
}

export interface ShortId {
  short: string;
  full: string;
}

/**
 * Ids in a markdown document as short prefixes, unique within it: every id is collected first (from
 * the raw values, before anything prints; a field no column shows only makes a prefix longer), then each keeps the shortest prefix of at least its kind's
 * length that no other id of the document shares, followed by `…`. The full ids go to the Evidence list.
 */
export class ShortIds {
  private readonly seen = new Set<string>();
  /** The ids a printed line showed shortened, in the order they first did: the Evidence list names these. */
  private readonly used = new Set<string>();
  private table: Map<string, string> | undefined;

  /** Every id in a value: strings, lists and count nouns, at any depth a row holds. */
  collect(v: unknown, depth = 0): void {
    if (typeof v === "string") {
      for (const m of v.matchAll(ID)) this.seen.add(m[0]);
    } else if (Array.isArray(v)) {
      if (depth < 8) for (const x of v) this.collect(x, depth + 1);
    } else if (isCount(v)) {
      this.collect(v.noun, depth + 1);
    } else if (v !== null && typeof v === "object" && depth < 8) {
      for (const x of Object.values(v)) this.collect(x, depth + 1);
    }
  }

  shorten(s: string): string {
    const t = this.names();
    if (t.size === 0) return s;
    return s.replace(ID, (m) => {
      const short = t.get(m);
      if (short === undefined || short === m) return m;
      this.used.add(m);
      return short;
    });
  }

  /** The ids that were shown shortened, in the order they first were. */
  list(): ShortId[] {
    const t = this.names();
    return [...this.used].map((id) => ({ short: t.get(id)!, full: id }));
  }

  private names(): Map<string, string> {
    if (this.table) return this.table;
    const table = new Map<string, string>();
    // In sorted order the longest prefix an id shares with any other is the one it shares with a neighbour.
    const sorted = [...this.seen].sort();
    sorted.forEach((id, i) => {
      const shared = Math.max(i > 0 ? common(id, sorted[i - 1]!) : 0, i + 1 < sorted.length ? common(id, sorted[i + 1]!) : 0);
      const n = Math.max(keepOf(id), shared + 1);
      table.set(id, n >= id.length ? id : `${id.slice(0, n)}…`);
    });
    this.table = table;
    return table;
  }
}

function common(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a.charCodeAt(n) === b.charCodeAt(n)) n++;
  return n;
}
