/**
 * Which of many names occur anywhere inside a text. Finding, for every saved output, the later calls
 * whose inputs name its file is then one pass over the inputs instead of a substring search per output
 * per call.
 *
 * Saved names share a start or an end (`toolu_`, `.txt`): a name can only occur where that common part
 * does, so each occurrence of it is looked up in a map of the names, once per name length. Where the
 * names share nothing, have many lengths, or a text holds the common part too often, an Aho–Corasick
 * automaton over UTF-16 units does it, built on first need: linear in the text plus the matches, but a
 * map per node (4.4 MB for 200 MB of transcript; the largest allocation of outputs' join).
 */
export class NameMatcher {
  private readonly byName = new Map<string, number[]>();
  /** The distinct lengths of the names, when few enough to look each up at every anchor. */
  private readonly lengths: number[];
  /** The common part is every name's start (else its end). */
  private readonly atStart: boolean;
  private trie: Automaton | undefined;

  /**
   * What every name contains (their longest common prefix or suffix, `toolu_` for saved outputs): a text
   * without it holds no name, and a native search says so for most inputs at a fraction of the walk.
   */
  private readonly common: string;

  constructor(private readonly names: readonly string[]) {
    const ends = commonEnds(names);
    this.atStart = ends.pre.length >= ends.suf.length;
    this.common = this.atStart ? ends.pre : ends.suf;
    names.forEach((name, id) => {
      if (name.length === 0) return;
      const ids = this.byName.get(name);
      if (ids) ids.push(id);
      else this.byName.set(name, [id]);
    });
    const lengths = [...new Set([...this.byName.keys()].map((n) => n.length))];
    this.lengths = this.common.length >= ANCHOR_MIN && lengths.length <= MAX_LENGTHS ? lengths : [];
  }

  /** Adds to `found` the index of every name that occurs in `text`. */
  collect(text: string, found: Set<number>): void {
    if (this.common !== "" && !text.includes(this.common)) return;
    if (this.lengths.length > 0 && this.anchored(text, found)) return;
    (this.trie ??= new Automaton(this.names)).collect(text, found);
  }

  /**
   * Every name at every occurrence of the common part; false when the text holds it so often that the
   * automaton is cheaper (what was found so far stays found: the automaton finds it again).
   */
  private anchored(text: string, found: Set<number>): boolean {
    const c = this.common;
    let budget = 4 * text.length + 256;
    for (let i = text.indexOf(c); i >= 0; i = text.indexOf(c, i + 1)) {
      if ((budget -= this.lengths.length) < 0) return false;
      // A name starts at i (the common start) or ends where the common end does.
      const end = i + c.length;
      for (const n of this.lengths) {
        const from = this.atStart ? i : end - n;
        if (from < 0 || from + n > text.length) continue;
        const ids = this.byName.get(text.slice(from, from + n));
        if (ids) for (const id of ids) found.add(id);
      }
    }
    return true;
  }
}

/** Anchors need a common part at least this long (a shorter one would be found everywhere). */
const ANCHOR_MIN = 3;
/** More distinct name lengths than this, and each anchor costs too many look-ups. */
const MAX_LENGTHS = 16;

/** Aho–Corasick over UTF-16 units: which names occur in a text, linear in its length plus the matches. */
class Automaton {
  private readonly next: Array<Map<number, number>> = [new Map()];
  private readonly fail: number[] = [0];
  /** Names that end at a node (by index in the constructor's list). */
  private readonly ends: number[][] = [[]];
  /** The nearest node down the failure chain where some name ends; -1 when none. */
  private readonly endLink: number[] = [-1];

  constructor(names: readonly string[]) {
    names.forEach((name, id) => {
      let node = 0;
      for (let i = 0; i < name.length; i++) {
        const c = name.charCodeAt(i);
        let to = this.next[node]!.get(c);
        if (to === undefined) {
          to = this.next.length;
          this.next.push(new Map());
          this.fail.push(0);
          this.ends.push([]);
          this.endLink.push(-1);
          this.next[node]!.set(c, to);
        }
        node = to;
      }
      if (name.length > 0) this.ends[node]!.push(id);
    });
    this.link();
  }

  /** Adds to `found` the index of every name that occurs in `text`. */
  collect(text: string, found: Set<number>): void {
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      let to = this.next[node]!.get(c);
      while (to === undefined && node !== 0) {
        node = this.fail[node]!;
        to = this.next[node]!.get(c);
      }
      node = to ?? 0;
      for (let n = this.ends[node]!.length > 0 ? node : this.endLink[node]!; n > 0; n = this.endLink[n]!) {
        for (const id of this.ends[n]!) found.add(id);
      }
    }
  }

  /** Breadth first, so a node's failure target is final before its children need it. */
  private link(): void {
    const queue: number[] = [];
    for (const to of this.next[0]!.values()) queue.push(to);
    for (let q = 0; q < queue.length; q++) {
      const node = queue[q]!;
      for (const [c, to] of this.next[node]!) {
        let f = this.fail[node]!;
        while (f !== 0 && !this.next[f]!.has(c)) f = this.fail[f]!;
        const target = this.next[f]!.get(c);
        this.fail[to] = target !== undefined && target !== to ? target : 0;
        const ft = this.fail[to]!;
        this.endLink[to] = this.ends[ft]!.length > 0 ? ft : this.endLink[ft]!;
        queue.push(to);
      }
    }
  }
}

/** The longest start and the longest end every non-empty name shares. */
function commonEnds(names: readonly string[]): { pre: string; suf: string } {
  const full = names.filter((n) => n.length > 0);
  if (full.length === 0) return { pre: "", suf: "" };
  let pre = full[0]!.length;
  let suf = pre;
  for (const n of full) {
    const f = full[0]!;
    let k = 0;
    while (k < pre && k < n.length && n.charCodeAt(k) === f.charCodeAt(k)) k++;
    pre = k;
    k = 0;
    while (k < suf && k < n.length && n.charCodeAt(n.length - 1 - k) === f.charCodeAt(f.length - 1 - k)) k++;
    suf = k;
  }
  const f = full[0]!;
  return { pre: f.slice(0, pre), suf: f.slice(f.length - suf) };
}
