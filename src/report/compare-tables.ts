import type { CompareGroup, CompareRow } from "../analyses/compare.js";
import { COMPARE_COLUMNS } from "./compare-columns.js";
import { COMPACTION_NOTE } from "./compaction-note.js";
import { col, type Table } from "./model.js";

const KEY_COLUMNS = new Set<string>(["label", "run", "firstRequestTokens", "deltaVsBaseline"]);

/** One row per run, in the columns `--columns` chose. */
export function compareRunsTable(rows: CompareRow[], columns: Array<keyof CompareRow>): Table {
  const notes = ["Δ vs baseline = this run's first request − the mean first request of the baseline label's runs"];
  if (rows.some((r) => r.error)) notes.push("runs with an error could not be read; see the error column (--columns …,error) and stderr");
  const compacted = rows.some((r) => (r.compactions ?? 0) > 0);
  if (compacted) notes.push(COMPACTION_NOTE);
  return {
    id: "runs",
    title: "Runs",
    // The first chosen column is kept too, so a `--columns` list without the usual keys still has a row label.
    // A compacted run's row is marked on its first column, whatever `--columns` put there (CSV gets the flag only then).
    columns: columns.map((k, i) =>
      col(k, COMPARE_COLUMNS[k][0], COMPARE_COLUMNS[k][1], {
        priority: i === 0 || KEY_COLUMNS.has(k) ? 1 : 2,
        ...(i === 0 && compacted ? { marks: [{ key: "compacted", text: " §" }] } : {}),
      }),
    ),
    rows: rows.map((r) => ({ ...r, compacted: (r.compactions ?? 0) > 0 })),
    notes,
  };
}

/** Repeats of a label grouped, with their spread and the delta against the baseline. */
export function compareGroupsTable(groups: CompareGroup[], baseline: string | null): Table {
  return {
    id: "groups",
    title: "Per configuration (repeats grouped)",
    columns: [
      col("label", "label", "id", { priority: 1 }),
      col("runs", "runs", "int", { priority: 3 }),
      col("firstRequestMin", "request 1 min", "int", { priority: 2 }),
      col("firstRequestMax", "request 1 max", "int", { priority: 2 }),
      col("spread", "spread", "int", { priority: 2 }),
      col("deltaVsBaseline", `Δ vs ${baseline ?? "baseline"}`, "signed", { priority: 1 }),
      col("instructionChars", "instr. chars", "int", { priority: 2 }),
      col("truncated", "truncated", "bool", { priority: 3 }),
      col("answersAgree", "answers agree", "bool", { priority: 3 }),
      col("answerMatches", "answers match", "bool", { priority: 3 }),
      col("era", "era", "text", { priority: 3 }),
      col("costUsd", "cost (sum)", "usd", { priority: 3 }),
    ],
    rows: groups.map((g) => ({ ...g })),
    notes: [`largest spread between repeats of one label: ${Math.max(0, ...groups.map((g) => g.spread ?? 0))} tokens`],
  };
}
