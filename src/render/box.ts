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
    let s = "│";
    for (let i = 0; i < this.widths.length; i++) {
      const c = cells[i]!;
      const pad = Math.max(0, this.widths[i]! - c.width);
      const text = c.paint ? c.paint(c.text) : c.text;
      s += this.aligns[i] === "right" ? ` ${" ".repeat(pad)}${text} │` : ` ${text}${" ".repeat(pad)} │`;
    }
    return s;
  }
}
