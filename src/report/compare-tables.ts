import type { CompareGroup, CompareRow } from "../analyses/compare.js";
import { COMPARE_COLUMNS } from "./compare-columns.js";
import { COMPACTION_NOTE } from "./compaction-note.js";
import { col, type ColumnKind, type Table } from "./model.js";

const KEY_COLUMNS = new Set<string>(["label", "run", "firstRequestTokens", "deltaVsBaseline"]);

/** One row per run, in the columns `--columns` chose. */
export function compareRunsTable(rows: CompareRow[], chosen: Array<keyof CompareRow>): Table {
  const notes = ["Δ vs baseline = this run's first request − the mean first request of the baseline label's runs"];
  const failed = rows.some((r) => r.error);
  // A run that could not be read must say why in the table itself, whatever columns were chosen.
  const columns: Array<keyof CompareRow> = failed && !chosen.includes("error") ? [...chosen, "error"] : chosen;
  if (failed)
    notes.push(
      "runs with an error could not be read, or claude did not finish (figures shown, no Δ): the error column says why, stderr has the details",
    );
  if (rows.some((r) => r.instructionsRequest !== null && r.instructionsRequest > 1))
    notes.push(
      "instr. request > 1: the instructions arrived after request 1 (a late server), so request 1's Δ does not measure them and tokens/char is left blank",
    );
  const compacted = rows.some((r) => (r.compactions ?? 0) > 0);
  if (compacted) notes.push(COMPACTION_NOTE);
  const differs = rows.some((r) => r.baselineDiffers !== null);
  if (differs) notes.push(differsNote(rows));
  return {
    id: "runs",
    title: "Runs",
    // The first chosen column is kept too, so a `--columns` list without the usual keys still has a row label.
    // A compacted run's row is marked on its first column, whatever `--columns` put there (CSV gets the flag only then).
    columns: columns.map((k, i) =>
      col(k, COMPARE_COLUMNS[k][0], COMPARE_COLUMNS[k][1], {
        priority: i === 0 || KEY_COLUMNS.has(k) || k === "error" ? 1 : 2,
        ...(i === 0 && compacted ? { marks: [{ key: "compacted", text: " §" }] } : {}),
        ...(k === "deltaVsBaseline" && differs ? { marks: [DIFFERS_MARK] } : {}),
      }),
    ),
    rows: rows.map((r) => ({
      ...r,
      compacted: (r.compactions ?? 0) > 0,
      ...(differs ? { baselineDiffersMark: r.baselineDiffers !== null } : {}),
    })),
    notes,
  };
}

/** Repeats of a label grouped, with their spread and the delta against the baseline. */
export function compareGroupsTable(groups: CompareGroup[], baseline: string | null): Table {
  const differs = groups.some((g) => g.baselineDiffers !== null);
  return {
    id: "groups",
    title: "Per configuration (repeats grouped)",
    columns: [
      col("label", "label", "id", { priority: 1 }),
      col("runs", "runs", "int", { priority: 3 }),
      col("firstRequestMin", "request 1 min", "int", { priority: 2 }),
      col("firstRequestMax", "request 1 max", "int", { priority: 2 }),
      col("spread", "spread", "int", { priority: 2 }),
      col("deltaVsBaseline", `Δ vs ${baseline ?? "baseline"}`, "signed", { priority: 1, ...(differs ? { marks: [DIFFERS_MARK] } : {}) }),
      col("instructionChars", "instr. chars", "int", { priority: 2 }),
      col("truncated", "truncated", "bool", { priority: 3 }),
      col("answersAgree", "answers agree", "bool", { priority: 3 }),
      col("answerMatches", "answers match", "bool", { priority: 3 }),
      col("era", "era", "text", { priority: 3 }),
      col("costUsd", "cost (sum)", "usd", { priority: 3 }),
    ],
    rows: groups.map((g) => ({ ...g, ...(differs ? { baselineDiffersMark: g.baselineDiffers !== null } : {}) })),
    notes: [
      `largest spread between repeats of one label: ${Math.max(0, ...groups.map((g) => g.spread ?? 0))} tokens`,
      ...driftNotes(groups),
      ...(differs ? [differsNote(groups)] : []),
    ],
  };
}

/** Marks a delta whose baseline ran with another configuration (CSV gets the flag only then). */
const DIFFERS_MARK = { key: "baselineDiffersMark", text: " †" };

/** Seed 000: "the ENABLE_TOOL_SEARCH=false runs have no matching baseline, so only the total is reported". */
function differsNote(rows: Array<{ label: string; baselineDiffers: string | null }>): string {
  const by = new Map<string, string>();
  for (const r of rows) if (r.baselineDiffers !== null && !by.has(r.label)) by.set(r.label, r.baselineDiffers);
  return `† no comparable baseline: ${[...by].map(([l, d]) => `${l} ran with ${d}`).join("; ")}. That variable changes request 1 by itself (tool search off sends every tool definition), so this Δ is the whole difference, not what the instructions cost; tokens/char is left blank and the fit leaves the run out`;
}

/** Request 1 should not move between repeats of one configuration; say where it did, by how much. */
function driftNotes(groups: CompareGroup[]): string[] {
  const moved = groups.filter((g) => g.drift);
  if (!moved.length) return [];
  const n = (x: number | null) => (x === null ? "?" : x.toLocaleString("en-US"));
  return [
    `request 1 drifted between repeats (nothing in the configuration changed): ${moved
      .map((g) => `${g.label} ${n(g.firstRequestMin)}–${n(g.firstRequestMax)} (${n(g.spread)})`)
      .join("; ")}`,
  ];
}

/**
 * max − min between repeats for every numeric column that varies in some label: the seed's "each pair
 * matched within 8 tokens", for every figure and not only request 1.
 */
export function compareSpreadsTable(groups: CompareGroup[]): Table {
  const keys = [...new Set(groups.flatMap((g) => Object.keys(g.spreads)))].filter(
    (k) => k in COMPARE_COLUMNS && groups.some((g) => g.runs > 1 && (g.spreads[k] ?? 0) !== 0),
  ) as Array<keyof CompareRow>;
  return {
    id: "spreads",
    title: "Spread between repeats (max − min)",
    columns: [
      col("label", "label", "id", { priority: 1 }),
      col("runs", "runs", "int", { priority: 1 }),
      ...keys.map((k) => col(k, COMPARE_COLUMNS[k][0], spreadKind(COMPARE_COLUMNS[k][1]), { priority: 2 })),
    ],
    rows: groups.map((g) => ({ label: g.label, runs: g.runs, ...Object.fromEntries(keys.map((k) => [k, g.spreads[k] ?? null])) })),
    notes: [
      keys.length
        ? "columns where some label's repeats differ; blank: a repeat lacks the value"
        : "every numeric column agrees between the repeats of each label",
    ],
  };
}

/** A spread is a size, never signed: a `signed` column's spread reads as a plain count. */
function spreadKind(kind: ColumnKind): ColumnKind {
  return kind === "signed" ? "int" : kind;
}
