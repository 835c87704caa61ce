/** Names Claude Code gives saved tool outputs in `tool-results/` (FORMATS.md 6.4); path text only, no I/O. */
export type SavedNameKind = "toolu" | "bash" | "mcp" | "pdf" | "other";

export interface SavedName {
  /** The part after the last `tool-results/` (a file name, or `pdf-<uuid>/page.png`), else the base name. */
  relative: string;
  kind: SavedNameKind;
  extension: string | null;
}

const SAVED =
  /^(?:(?<toolu>toolu_[A-Za-z0-9]+)\.(?:txt|json)|(?<bash>b[0-9a-z]{8})\.txt|mcp-(?<mcp>.+)-(?<ms>\d{13})\.[a-z0-9]+|(?<pdf>pdf-[0-9a-f-]{36})(?:[\\/].*)?)$/;

/** Reads a printed saved-output path: which producer named it, and its name inside `tool-results/`. */
export function savedName(path: string): SavedName {
  const norm = path.replace(/\\/g, "/");
  const at = norm.lastIndexOf("tool-results/");
  const relative = at >= 0 ? norm.slice(at + "tool-results/".length) : norm.slice(norm.lastIndexOf("/") + 1);
  const m = SAVED.exec(relative);
  const kind: SavedNameKind = !m ? "other" : m.groups!.toolu ? "toolu" : m.groups!.bash ? "bash" : m.groups!.mcp ? "mcp" : "pdf";
  const dot = relative.lastIndexOf(".");
  const extension = dot > relative.lastIndexOf("/") && dot >= 0 ? relative.slice(dot + 1).toLowerCase() : null;
  return { relative, kind, extension };
}

/** The base name of a path printed on any platform. */
export function baseName(path: string): string {
  const norm = path.replace(/\\/g, "/");
  return norm.slice(norm.lastIndexOf("/") + 1);
}
