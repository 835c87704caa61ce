import type { Column, ColumnKind, Row } from "../report/model.js";
import { formatterFor, namedKind, text, type Formatter } from "./kinds.js";
import type { Clock } from "./markdown-clock.js";
import { formatInt } from "../report/int-format.js";

const INT = { format: formatInt };
const SECONDS = new Intl.NumberFormat("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** `312 ms` below a second, `23.4 s` from one on: a blog reader compares durations, not milliseconds. */
export function duration(n: number): string {
  const r = Math.round(n);
  return Math.abs(r) < 1000 ? `${INT.format(r)} ms` : `${SECONDS.format(r / 1000)} s`;
}

/** Two significant digits below 0.1, two decimals above, never an exponent (`toPrecision` prints `1.0e-7`). */
export function mdRate(v: number): string {
  const a = Math.abs(v);
  if (a >= 0.1 || a === 0) return v.toFixed(2);
  return v.toFixed(Math.min(20, 1 - Math.floor(Math.log10(a))));
}

const numeric =
  (f: (n: number) => string): Formatter =>
  (v, row, c) =>
    typeof v === "number" ? f(v) : text(v, row, c);
const num = (v: unknown, row: Row, c: Column) => (typeof v === "number" ? INT.format(v) : text(v, row, c));
const part = (row: Row, c: Column, i: number): unknown => {
  const k = c.parts?.[i];
  return k === undefined ? undefined : row[k];
};

const money = numeric((n) => `$${n.toFixed(4)}`);

/**
 * The one number style of markdown: thousands separators everywhere, durations in ms or s, money to 4
 * decimals (Claude Code's 6 included: `$0.2038`), `5,000 → 2,048`, times of day from `clock`. The kinds
 * it does not name print as in every other human format.
 */
export function markdownFormatter(clock: Clock): (kind: ColumnKind) => Formatter {
  const time: Formatter = (v, row, c) => (typeof v === "string" ? clock.show(v) : text(v, row, c));
  const countOf: Formatter = (v, row, c) => {
    if (typeof v !== "number") return text(v, row, c);
    if (v === 0) return "";
    const approx = c.parts?.[1] !== undefined && part(row, c, 1) !== true;
    const chars = part(row, c, 0);
    return `${INT.format(v)} (${approx ? "≈" : ""}${INT.format(typeof chars === "number" ? chars : 0)})`;
  };
  const countGrowth: Formatter = (v, row, c) => {
    if (typeof v !== "number") return text(v, row, c);
    if (v === 0) return "";
    const g = part(row, c, 0);
    return typeof g === "number" ? `${INT.format(v)} (+${INT.format(g)})` : INT.format(v);
  };
  const change: Formatter = (v, row, c) => `${num(v, row, c)} → ${num(part(row, c, 0) ?? "?", row, c)}`;
  const pick = (kind: ColumnKind): Formatter => {
    switch (kind) {
      case "ms":
        return numeric(duration);
      case "usd":
      case "usdExact":
        return money;
      case "rate":
        return numeric(mdRate);
      case "time":
        return time;
      case "countOf":
        return countOf;
      case "countGrowth":
        return countGrowth;
      case "change":
        return change;
      case "mixed":
        // A key/value row names its value's kind; it gets the same markdown style as a column of that kind.
        return (v, row, c) => pick(namedKind(row.kind))(v, row, c);
      default:
        return formatterFor(kind);
    }
  };
  return pick;
}
