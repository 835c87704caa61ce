import type { Table } from "../report/model.js";

/** A table the human formats draw: it has rows or a footer. */
export const hasRows = (t: Table): boolean => t.rows.length > 0 || (t.footer?.length ?? 0) > 0;

/**
 * What an empty table says instead of itself, in markdown and HTML alike: its own sentence, or the notes
 * of a table that is only a statement. None: the table is left out.
 */
export function statements(t: Table): string[] {
  if (t.whenEmpty !== undefined) return [t.whenEmpty];
  return t.columns.length === 0 ? (t.notes ?? []) : [];
}

/** A statement as a sentence: a capital first, a full stop last. */
export const sentence = (s: string): string => {
  const t = s.trim().replace(/^[a-z]/, (c) => c.toUpperCase());
  return /[.!?)]$/.test(t) ? t : `${t}.`;
};
