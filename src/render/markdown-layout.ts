import { col, type Column, type Row, type Table } from "../report/model.js";
import { alignOf } from "./kinds.js";

/** A blog page at 1,200 px holds about seven columns of numbers and short text before the right-hand ones run off. */
export const MAX_COLUMNS = 7;
/** A wide table with this many rows or fewer (footer included) reads better turned: one line per field. */
export const TRANSPOSE_ROWS = 4;

/** One markdown table as text cells (not yet escaped); footer rows, or the trailing footer columns of a turned table, print bold. */
export interface Grid {
  title: string;
  header: string[];
  align: Array<"left" | "right">;
  body(): Iterable<string[]>;
  footer(): Iterable<string[]>;
  /** The last this-many columns are footer rows turned into columns. */
  boldColumns: number;
}

/** A cell's text from its row and column; `empty` for nothing. */
export type CellText = (row: Row, c: Column, empty: string) => string;

/**
 * A table as it fits a blog page: as it is up to MAX_COLUMNS columns; wider, turned (fields as rows,
 * one column per row) when it has at most TRANSPOSE_ROWS rows, else split into a main table of the
 * key and the highest-priority columns and details tables of the rest, each keyed by the same key.
 * `restart` is called before each run through the rows (times show their date again in each piece).
 */
export function blogGrids(t: Table, cell: CellText, restart: () => void): Grid[] {
  const footer = t.footer ?? [];
  if (t.columns.length <= MAX_COLUMNS) return [plain(t.title, t.columns, t, cell, restart)];
  if (t.rows.length + footer.length <= TRANSPOSE_ROWS) return [turned(t, cell, restart)];
  return split(t, cell, restart);
}

function plain(title: string, columns: Column[], t: Table, cell: CellText, restart: () => void, key?: KeyOf): Grid {
  const all = key ? [key.column, ...columns] : columns;
  const line = (r: Row, i: number, empty: string) => [...(key ? [key.text(r, i)] : []), ...columns.map((c) => cell(r, c, empty))];
  return {
    title,
    header: all.map((c) => c.header),
    align: all.map(alignOf),
    *body() {
      restart();
      let i = 0;
      for (const r of t.rows) yield line(r, i++, "—");
    },
    *footer() {
      // A totals row with nothing in this piece's columns would be a blank bold line.
      for (const r of t.footer ?? []) if (columns.some((c) => cell(r, c, "") !== "")) yield line(r, -1, "");
    },
    boldColumns: 0,
  };
}

function turned(t: Table, cell: CellText, restart: () => void): Grid {
  const [key, ...rest] = t.columns as [Column, ...Column[]];
  const rows = [...t.rows];
  const footer = t.footer ?? [];
  // A bare number heads a column badly (`12`): a numeric key says what it counts (`line 12`), and the corner stays blank.
  const numeric = alignOf(key) === "right";
  const keyText = (r: Row) => {
    const s = cell(r, key, "") || "—";
    return numeric && /^\d/.test(s) ? `${key.header} ${s}` : s;
  };
  return {
    title: t.title,
    header: [numeric ? "" : key.header, ...rows.map(keyText), ...footer.map(keyText)],
    align: [key, ...rows, ...footer].map(() => "left"),
    *body() {
      restart();
      // Field by field, so a time field still reads left to right in row order.
      for (const c of rest) yield [c.header, ...rows.map((r) => cell(r, c, "—")), ...footer.map((r) => cell(r, c, ""))];
    },
    footer: () => [],
    boldColumns: footer.length,
  };
}

interface KeyOf {
  column: Column;
  text(r: Row, i: number): string;
}

function split(t: Table, cell: CellText, restart: () => void): Grid[] {
  const [first, ...others] = t.columns as [Column, ...Column[]];
  const own = keysRows(t, first, cell);
  restart();
  const key: KeyOf = own
    ? { column: first, text: (r) => cell(r, first, "") }
    : { column: col("#", "#", "int"), text: (_r, i) => (i < 0 ? "" : String(i + 1)) };
  const rest = own ? others : t.columns;
  const room = MAX_COLUMNS - 1;
  // The main table takes the most important columns, shown in their own order; ties go to the earlier column.
  const chosen = new Set(
    rest
      .map((c, i) => ({ c, i }))
      .sort((a, b) => a.c.priority - b.c.priority || a.i - b.i)
      .slice(0, room)
      .map((x) => x.c),
  );
  const left = rest.filter((c) => !chosen.has(c));
  const grids = [
    plain(
      t.title,
      rest.filter((c) => chosen.has(c)),
      t,
      cell,
      restart,
      key,
    ),
  ];
  // The rest in even pieces (4 + 4 rather than 6 + 2), so no details table is a sliver.
  const parts = Math.ceil(left.length / room);
  const size = Math.ceil(left.length / Math.max(1, parts));
  for (let p = 0; p < parts; p++) {
    const title = parts === 1 ? `${t.title}, continued` : `${t.title}, continued (${p + 1} of ${parts})`;
    grids.push(plain(title, left.slice(p * size, (p + 1) * size), t, cell, restart, key));
  }
  return grids;
}

/** Whether the first column tells the rows apart (`#`, a line, a server name): then it keys the pieces. */
function keysRows(t: Table, first: Column, cell: CellText): boolean {
  const seen = new Set<string>();
  for (const r of t.rows) {
    const s = cell(r, first, "");
    if (s === "" || seen.has(s)) return false;
    seen.add(s);
  }
  return true;
}
