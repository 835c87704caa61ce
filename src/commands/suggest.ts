/**
 * The closest of `known` to a mistyped `word`, or undefined: one edit per three letters at most
 * (transpositions count once), else a unique prefix. `version` is three edits from `sessions`, so
 * it gets no command suggested; main maps it to --version before it gets here.
 */
export function suggest(word: string, known: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  const limit = Math.max(1, Math.floor(w.length / 3));
  let best: string | undefined;
  let bestD = Infinity;
  const list = [...known];
  for (const k of list) {
    const d = distance(w, k.toLowerCase());
    if (d <= limit && d < bestD) {
      best = k;
      bestD = d;
    }
  }
  if (best !== undefined) return best;
  const prefixed = list.filter((k) => w.length >= 2 && k.toLowerCase().startsWith(w));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
export function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
