/** A cell measured once: its plain text, its width in columns, and the colour it is drawn in. */
export interface Cell {
  text: string;
  width: number;
  paint?: (s: string) => string;
}

export type Align = "left" | "right";

/**
 * cli-table3's box in its `compact` style (a rule under the header, none between rows, one space of
 * padding each side), drawn from widths the caller has already fitted: a row is one line, always.
 */
export class Box {
  readonly top: string;
  readonly mid: string;
  readonly bottom: string;
  constructor(
    private readonly widths: number[],
    private readonly aligns: Align[],
  ) {
    const bars = widths.map((w) => "─".repeat(w + 2));
    this.top = `┌${bars.join("┬")}┐`;
    this.mid = `├${bars.join("┼")}┤`;
    this.bottom = `└${bars.join("┴")}┘`;
  }

  /** One row; cells must already fit their column (see fit.ts). */
  line(cells: Cell[]): string {
    // One append per piece onto one string, padding cut from a ready run of spaces: the template per cell
    // it replaces built several short strings (each copied) per cell of every row.
    const last = this.widths.length - 1;
    let s = "│ ";
    for (let i = 0; i <= last; i++) {
      const c = cells[i]!;
      const n = this.widths[i]! - c.width;
      const pad = n <= 0 ? "" : n <= SPACES.length ? SPACES.slice(0, n) : " ".repeat(n);
      const text = c.paint ? c.paint(c.text) : c.text;
      if (this.aligns[i] === "right") s += pad + text;
      else s += text + pad;
      s += i === last ? " │" : " │ ";
    }
    return last < 0 ? "│" : s;
  }
}

const SPACES = " ".repeat(256);
