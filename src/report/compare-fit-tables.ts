import type { InstructionsFit } from "../analyses/compare-fit.js";
import { col, type Table } from "./model.js";

/** Wrapper cost and chars per token per script, fitted over the runs (seed 000's ≈51 tokens, 3.06 and 1.23 chars/token, 2.4×). */
export function compareFitTable(fit: InstructionsFit): Table {
  const first = fit.scripts.find((s) => s.wrapperFrom === "fitted")?.script;
  return {
    id: "fit",
    title: "Instructions cost, fitted over the runs",
    columns: [
      col("script", "script", "id", { priority: 1 }),
      col("runs", "runs", "int", { priority: 2 }),
      col("sizes", "sizes", "int", { priority: 3 }),
      col("wrapperTokens", "wrapper tokens", "ratio", { priority: 1 }),
      col("wrapperFrom", "wrapper", "text", { priority: 3 }),
      col("tokensPerChar", "tokens/char", "rate", { priority: 2 }),
      col("charsPerToken", "chars/token", "ratio", { priority: 1 }),
      col("ratio", `× ${first ?? "first"}`, "ratio", { priority: 1 }),
    ],
    rows: fit.scripts.map((s) => ({ ...s })),
    notes: [
      "least squares of Δ tokens (request 1 − baseline) against delivered chars, per script; runs whose instructions missed request 1, with several servers, or with tool search off are left out",
      "wrapper shared: one size only, so the wrapper comes from the fitted scripts and chars/token from the rest",
    ],
  };
}

/** Each run of the fit against its line: how well two numbers explain the deltas. */
export function compareResidualsTable(fit: InstructionsFit): Table {
  return {
    id: "residuals",
    title: "Fit residuals",
    columns: [
      col("run", "run", "id", { priority: 1 }),
      col("script", "script", "text", { priority: 2 }),
      col("chars", "chars", "int", { priority: 1 }),
      col("deltaTokens", "Δ tokens", "signed", { priority: 1 }),
      col("fitted", "fitted", "ratio", { priority: 2 }),
      col("residual", "residual", "ratio", { priority: 1 }),
    ],
    rows: fit.residuals.map((r) => ({ ...r })),
    notes: ["residual = Δ tokens − fitted"],
  };
}
