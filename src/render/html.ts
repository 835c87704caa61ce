import type { Column, OutputDocument as Report, Table } from "../report/model.js";
import { renderSvg } from "./chart.js";
import { HTML_STYLE } from "./html-style.js";
import { escapeHtml } from "./html-escape.js";
import { sanitize } from "./sanitize.js";
import { safeSvg } from "./svg-safe.js";
import { cellText, formatValue, shownColumns } from "./cell.js";
import { alignOf } from "./kinds.js";
import { hasRows, sentence, statements } from "./empty-tables.js";
import { Clock, seeTimes } from "./markdown-clock.js";
import { filesReadHeading, healthLine, listedFiles, moreFiles, type MarkdownEvidence } from "./markdown-evidence.js";
import { markdownFormatter } from "./markdown-style.js";
import { displayZone } from "./zone.js";

/**
 * Scripts, fonts, frames, forms and every fetch are refused; only the inline stylesheet and data: images
 * load. The page is evidence shown to whoever opens it, so nothing in it may run or phone home.
 */
export const HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/** Evidence text for an HTML text node or attribute: control/bidi characters as escapes, then `& < > " '`. */
const text = (s: string) => escapeHtml(sanitize(s));

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/;

/**
 * Break opportunities inside long ids and paths, so a column is as narrow as its longest segment rather
 * than its longest path, yet a word never splits: after `/ \ = __` in a token of 16+ characters
 * (`mcp__big__` | `emit_text`), also after `- _` in one of 24+ (UUIDs, file names), and after `. , :`
 * only away from digits, so times and numbers stay whole. Runs on escaped text: none of these
 * characters occurs inside an entity.
 */
export function breakable(escaped: string): string {
  return escaped.replace(/[^\s<>]{16,}/g, (run) => {
    if (ISO_TIME.test(run)) return run;
    return breakRun(run, run.length >= 24);
  });
}

/** What ends a separator run: a character that is none of these (a run holds no white space). */
const SEPARATORS = "/\\_-.,=:";
const isPunct = (c: string | undefined) => c === "." || c === "," || c === ":";
const isSlashLong = (c: string | undefined) => c === "/" || c === "\\" || c === "_" || c === "-" || c === "=";
const isSlashShort = (c: string | undefined) => c === "/" || c === "\\" || c === "=";
const isUnderscore = (c: string | undefined) => c === "_";

/**
 * `run.replace(SEPS, "$1<wbr>")` for the regexes
 * long: `/(\D[.,:]+|[.,:]+(?=\D)|[/\\_\-=]+)(?=[^\s/\\_\-.,=:])/g`,
 * short: `/(\D[.,:]+|[.,:]+(?=\D)|[/\\=]+|__+)(?=[^\s/\\_\-.,=:])/g`,
 * in linear time: the regexes scanned a run of separators again from each of its characters (seconds on
 * 50,000 dots of a path, hours on a megabyte). Each separator run only matches whole (a shorter one is
 * followed by a separator, which the lookahead refuses), so its end is found once and kept.
 */
function breakRun(run: string, long: boolean): string {
  const n = run.length;
  const ends = new Map<(c: string | undefined) => boolean, { from: number; to: number }>();
  /** Where the run of `inClass` characters that starts at `i` ends (`i` when run[i] is not one). */
  const end = (inClass: (c: string | undefined) => boolean, i: number): number => {
    if (!inClass(run[i])) return i;
    const known = ends.get(inClass);
    if (known && i >= known.from && i < known.to) return known.to;
    if (known && i === known.from - 1) return ((known.from = i), known.to);
    let to = i;
    while (to < n && inClass(run[to])) to++;
    ends.set(inClass, { from: i, to });
    return to;
  };
  const follows = (p: number) => p < n && !SEPARATORS.includes(run[p]!);
  const digit = (p: number) => run.charCodeAt(p) >= 0x30 && run.charCodeAt(p) <= 0x39;
  const slash = long ? isSlashLong : isSlashShort;
  let out = "";
  let last = 0;
  for (let i = 0; i < n;) {
    let e = -1;
    if (!digit(i) && isPunct(run[i + 1]) && follows(end(isPunct, i + 1))) e = end(isPunct, i + 1);
    else if (isPunct(run[i]) && !digit(end(isPunct, i)) && follows(end(isPunct, i))) e = end(isPunct, i);
    else if (slash(run[i]) && follows(end(slash, i))) e = end(slash, i);
    else if (!long && run[i] === "_" && run[i + 1] === "_" && follows(end(isUnderscore, i))) e = end(isUnderscore, i);
    if (e < 0) {
      i++;
      continue;
    }
    out += `${run.slice(last, e)}<wbr>`;
    last = i = e;
  }
  return out + run.slice(last);
}

/**
 * One self-contained HTML5 page: the markdown document's sections (title, summary, each table with its
 * notes and footer, an empty table left out or said in one sentence, the Evidence list last), charts as
 * inline SVG, a stylesheet in the page and nothing fetched.
 */
export async function renderHtml(report: Report, evidence?: MarkdownEvidence): Promise<string> {
  return [...htmlChunks(report, await chartFigures(report), evidence)].join("");
}

/** Beyond this many points an inline chart costs more page (and render time) than it tells; `--chart FILE` still draws it. */
export const MAX_INLINE_POINTS = 5000;

/** The charts' markup, drawn ahead (vega renders asynchronously) so the page itself can stream. */
export async function chartFigures(report: Report): Promise<string[]> {
  const out: string[] = [];
  for (const c of report.charts ?? []) {
    const values = (c.spec.data as { values?: unknown[] } | undefined)?.values;
    const n = Array.isArray(values) ? values.length : 0;
    out.push(
      n > MAX_INLINE_POINTS
        ? `<p class="note">chart “${text(c.title)}” left out: ${n.toLocaleString("en-US")} points (more than ${MAX_INLINE_POINTS.toLocaleString("en-US")}); --chart FILE.svg draws it</p>`
        : await chartFigure(c.title, c.spec, `c${out.length + 1}-`),
    );
  }
  return out;
}

/** The page in pieces, a table row at a time; `figures` from chartFigures, `evidence` the files read and their health. */
export function* htmlChunks(report: Report, figures: string[], evidence?: MarkdownEvidence): Generator<string> {
  yield* head(report.title);
  yield `<h1>${text(report.title)}</h1>\n`;
  if (report.summary?.length) {
    yield '<ul class="summary">\n';
    // A page is published as a blog page is: the markdown number style, and full times with their zone.
    const clock = new Clock(displayZone());
    const fmt = markdownFormatter(clock);
    for (const [k, v, kind] of report.summary) {
      const value = kind === "time" && typeof v === "string" ? clock.full(v) : formatValue(v, kind ?? "text", "—", fmt);
      yield `<li><b>${text(k)}</b>: ${escapeHtml(value)}</li>\n`;
    }
    yield "</ul>\n";
  }
  const charts = report.charts ?? [];
  // As in markdown, an empty table is left out unless its absence says something.
  const tables = report.tables.filter((t) => hasRows(t) || statements(t).length > 0);
  const sections = new Set(tables.map((t) => t.section));
  // A chart whose section is not in the document still shows, after the summary.
  for (const [i, c] of charts.entries()) if (c.section === undefined || !sections.has(c.section)) yield `${figures[i] ?? ""}\n`;
  let section: string | undefined;
  for (const t of tables) {
    if (t.section !== section) {
      if (section !== undefined) yield "</section>\n";
      if (t.section !== undefined) {
        yield `<section><h2>${text(t.section)}</h2>\n`;
        for (const [i, c] of charts.entries()) if (c.section === t.section) yield `${figures[i] ?? ""}\n`;
      }
    }
    section = t.section;
    yield* tableChunks(t, t.section !== undefined ? 3 : 2);
  }
  if (section !== undefined) yield "</section>\n";
  yield* evidenceChunks(evidence);
  yield "</main>\n</body>\n</html>\n";
}

/** The page's last section, as markdown's: the files read (kind, path, size) and the parse health in one line. */
function* evidenceChunks(evidence: MarkdownEvidence | undefined): Generator<string> {
  const inputs = evidence?.inputs ?? [];
  if (inputs.length === 0 && !evidence?.health) return;
  yield '<section class="evidence"><h2>Evidence</h2>\n';
  if (inputs.length > 0) {
    yield `<p>${text(filesReadHeading(inputs))}</p>\n<ul>\n`;
    for (const f of listedFiles(inputs)) yield `<li>${text(f.kind)}: ${text(f.path)} (${text(f.size)})</li>\n`;
    const more = moreFiles(inputs);
    if (more) yield `<li>${text(more)}</li>\n`;
    yield "</ul>\n";
  }
  if (evidence?.health) yield `<p>${text(healthLine(evidence.health))}</p>\n`;
  yield "</section>\n";
}

function* head(title: string): Generator<string> {
  yield* [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${HTML_CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${text(title)}</title>`,
    `<style>${HTML_STYLE}</style>`,
    "</head>",
    "<body>",
    "<main>",
  ].map((l) => `${l}\n`);
}

function* tableChunks(whole: Table, level: number): Generator<string> {
  const t = shownColumns(whole);
  // Times of day in the cells, their date and zone in a note under the table; numbers as markdown has them.
  const clock = new Clock(displayZone());
  seeTimes(t, clock);
  const fmt = markdownFormatter(clock);
  /** cellText already sanitises; it composes a cell from its column's parts and marks as the other human formats do. */
  const cell = (r: Record<string, unknown>, c: Column, empty: string) => breakable(escapeHtml(cellText(r, c, empty, fmt)));
  if (!hasRows(t)) {
    // What its absence means, in one sentence; under a section heading, the sentence stands alone, as in markdown.
    yield `<section class="table">${t.section === undefined ? `<h${level}>${text(t.title)}</h${level}>` : ""}\n`;
    for (const s of statements(t)) yield `<p class="none">${text(sentence(s))}</p>\n`;
    yield "</section>\n";
    return;
  }
  yield `<section class="table"><h${level}>${text(t.title)}</h${level}>\n`;
  {
    const cls = t.columns.map((c) => columnClass(c, t.rows));
    const tr = (cells: string[], tag: "td" | "th") =>
      `<tr>${cells.map((c, i) => `<${tag} class="${cls[i]}">${c}</${tag}>`).join("")}</tr>\n`;
    // A focusable, labelled region: keyboard users can scroll a wide table, screen readers can name it.
    yield `<div class="scroll" role="region" tabindex="0" aria-label="${text(t.title)}"><table>\n`;
    yield `<thead>${tr(
      t.columns.map((c) => text(c.header)),
      "th",
    ).trimEnd()}</thead>\n`;
    yield "<tbody>\n";
    for (const r of t.rows)
      yield tr(
        t.columns.map((c) => cell(r, c, "—")),
        "td",
      );
    yield "</tbody>\n";
    if (t.footer?.length)
      yield `<tfoot>${t.footer
        .map((r) =>
          tr(
            t.columns.map((c) => cell(r, c, "")),
            "td",
          ).trimEnd(),
        )
        .join("")}</tfoot>\n`;
    yield "</table></div>\n";
  }
  const timeNote = clock.note();
  for (const note of [...(t.notes ?? []), ...(timeNote ? [timeNote] : [])]) yield `<p class="note">${text(note)}</p>\n`;
  yield "</section>\n";
}

/** A count with its parts ("2,194 (0/2,194)", "3*", "5,000 → 2,048") reads as a number: right-aligned. */
const COUNT_TEXT = /^[+\-−]?\$?\d[\d,.]*(?:KB|MB|GB|\*|\s|$)/;

function columnClass(c: Column, rows: Array<Record<string, unknown>>): string {
  if (alignOf(c) === "right") return "num";
  if (c.kind === "time" || c.kind === "bool") return "short";
  const shown = rows.map((r) => cellText(r, c)).filter((s) => s !== "");
  if (shown.length > 0 && shown.every((s) => COUNT_TEXT.test(s))) return "num";
  // Sentences (log lines, findings) get room to wrap in a few lines instead of a word per line.
  return shown.some((s) => s.length > 40 && s.includes(" ")) ? "text prose" : "text";
}

async function chartFigure(title: string, spec: Record<string, unknown>, idPrefix: string): Promise<string> {
  try {
    const svg = safeSvg(await renderSvg(spec), idPrefix);
    return `<figure class="chart" aria-label="${text(title)}">${svg}</figure>`;
  } catch (e) {
    return `<p class="note">chart “${text(title)}” not drawn: ${text((e as Error).message)}</p>`;
  }
}
