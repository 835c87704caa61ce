/**
 * Which of many names occur anywhere inside a text (Aho–Corasick over UTF-16 units). Finding, for every
 * saved output, the later calls whose inputs name its file is then one pass over the inputs, linear in
 * their length plus the matches, instead of a substring search per output per call.
 */
export class NameMatcher {
  private readonly next: Array<Map<number, number>> = [new Map()];
  private readonly fail: number[] = [0];
  /** Names that end at a node (by index in the constructor's list). */
  private readonly ends: number[][] = [[]];
  /** The nearest node down the failure chain where some name ends; -1 when none. */
  private readonly endLink: number[] = [-1];

  /**
   * What every name contains (their longest common prefix or suffix, `toolu_` for saved outputs): a text
   * without it holds no name, and a native search says so for most inputs at a fraction of the walk.
   */
  private readonly common: string;

  constructor(names: readonly string[]) {
    this.common = commonPart(names);
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
    if (this.common !== "" && !text.includes(this.common)) return;
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

function commonPart(names: readonly string[]): string {
  const full = names.filter((n) => n.length > 0);
  if (full.length === 0) return "";
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
  return pre >= suf ? f.slice(0, pre) : f.slice(f.length - suf);
}
