import type { Cut } from "./text-width.js";

/** How a column behaves when space is short (the report model's width class): ids and paths shorten in the middle, numbers never. */
export type WidthClass = "id" | "number" | "time" | "flag" | "text" | "path";

export interface FitColumn {
  /** 1 = kept longest; higher numbers are dropped first. */
  priority: number;
  width: WidthClass;
  /** Widest cell or header, in columns. */
  natural: number;
}

export interface Fit {
  /** Indices of the columns kept, in order. */
  shown: number[];
  /** Content width of each kept column. */
  widths: number[];
  hidden: number[];
  /** Kept columns narrower than their widest cell. */
  shortened: number[];
}

/** Narrowest a column gets before columns are dropped (soft), and before the first column goes too (hard). */
// An id keeps 8 characters of prefix and 4 of tail at the hard minimum (`toolu_01…hZ8R`): less matches nothing.
const SOFT: Record<WidthClass, number> = { id: 16, path: 24, text: 20, number: Infinity, time: Infinity, flag: Infinity };
const HARD: Record<WidthClass, number> = { id: 13, path: 16, text: 10, number: Infinity, time: Infinity, flag: Infinity };

export const cutOf = (w: WidthClass): Cut => (w === "id" ? "middle-id" : w === "path" ? "middle-path" : "end");

/** Box width of columns of these content widths: a border and a space each side per column, one closing border. */
export const boxWidth = (widths: number[]) => widths.reduce((a, w) => a + w + 3, 1);

/**
 * Which columns a box of at most `total` columns keeps, and how wide each is. Shortening comes first
 * (ids and paths lose their middle, text its end, down to a soft minimum); then the least important
 * columns go, rightmost first; then everything shortens to a hard minimum and columns go by priority
 * until one is left, which is cut to fit. A dropped column that fits again once others went is shown again.
 * Whatever space is left returns to the shortened columns.
 */
export function fitColumns(cols: FitColumn[], total: number): Fit {
  const shown = cols.map((_, i) => i);
  if (boxWidth(cols.map((c) => c.natural)) <= total) return { shown, widths: cols.map((c) => c.natural), hidden: [], shortened: [] };
  let mins = SOFT;
  const minOf = (i: number) => Math.min(cols[i]!.natural, mins[cols[i]!.width]);
  const need = () => boxWidth(shown.map(minOf));
  const dropWorst = (maxPriority: number, minPriority: number): boolean => {
    let pick = -1;
    for (let k = shown.length - 1; k >= 1; k--) {
      const p = cols[shown[k]!]!.priority;
      if (p >= minPriority && p <= maxPriority && (pick < 0 || p > cols[shown[pick]!]!.priority)) pick = k;
    }
    if (pick < 0) return false;
    shown.splice(pick, 1);
    return true;
  };
  const steps: Array<() => boolean> = [
    () => dropWorst(Infinity, 3),
    () => {
      if (mins === HARD) return false;
      mins = HARD;
      return true;
    },
    () => dropWorst(Infinity, 2),
    () => dropWorst(Infinity, -Infinity),
  ];
  for (const step of steps) while (need() > total && step());
  // Columns go by priority, not by width, so a narrow one may have gone before a wide one whose going alone
  // was enough: every hidden column that fits at the minimum reached comes back, the most important first.
  const dropped = cols.map((_, i) => i).filter((i) => !shown.includes(i));
  dropped.sort((a, b) => cols[a]!.priority - cols[b]!.priority || a - b);
  for (const i of dropped) {
    const trial = [...shown, i].sort((a, b) => a - b);
    if (boxWidth(trial.map(minOf)) <= total) shown.splice(0, shown.length, ...trial);
  }

  const widths = shown.map(minOf);
  let spare = total - boxWidth(widths);
  // Water-filling: the columns cut least get their whole width back first; the rest share what is left evenly.
  const growable = shown.map((_, j) => j).filter((j) => widths[j]! < cols[shown[j]!]!.natural);
  growable.sort((a, b) => cols[shown[a]!]!.natural - widths[a]! - (cols[shown[b]!]!.natural - widths[b]!));
  for (let g = 0; g < growable.length && spare > 0; g++) {
    const j = growable[g]!;
    const give = Math.min(cols[shown[j]!]!.natural - widths[j]!, Math.ceil(spare / (growable.length - g)));
    widths[j]! += give;
    spare -= give;
  }
  // One column left and still too wide (a long number on a tiny terminal): cut it anyway.
  if (spare < 0 && shown.length === 1) widths[0] = Math.max(1, widths[0]! + spare);
  const hidden = cols.map((_, i) => i).filter((i) => !shown.includes(i));
  const shortened = shown.filter((i, j) => widths[j]! < cols[i]!.natural);
  return { shown, widths, hidden, shortened };
}
