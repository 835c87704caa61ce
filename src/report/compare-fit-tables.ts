import { meanDeltaAt, type InstructionsFit } from "../analyses/compare-fit.js";
import { col, type Table } from "./model.js";

/** Wrapper cost and chars per token per script, fitted over the runs (seed 000's ≈51 tokens, 3.06 and 1.23 chars/token), and its 2.4× as the same-chars Δ ratio. */
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
      col("ratio", `× ${first ?? "first"} per char`, "ratio", { priority: 1 }),
      col("deltaRatio", `Δ × ${first ?? "first"} same chars`, "ratio", { priority: 1 }),
      col("deltaRatioChars", "at chars", "int", { priority: 3 }),
    ],
    rows: fit.scripts.map((s) => ({ ...s })),
    notes: [
      "least squares of Δ tokens (request 1 − baseline) against delivered chars, per script; runs whose instructions missed request 1, with several servers, or with tool search off are left out",
      "wrapper shared: one size only, so the wrapper comes from the fitted scripts and chars/token from the rest",
      ...ratioNotes(fit, first ?? "first"),
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

/** What the two ratios are, with the numbers behind the same-chars one (seed 000's 2.4× is 1,727 / 721 at 2,061 chars). */
function ratioNotes(fit: InstructionsFit, first: string): string[] {
  const mean = (script: string, chars: number) => meanDeltaAt(fit.residuals, script, chars)!;
  const n = (x: number) => x.toLocaleString("en-US", { maximumFractionDigits: 1 });
  const same = fit.scripts
    .filter((s) => s.deltaRatio !== null && s.deltaRatioChars !== null)
    .map(
      (s) =>
        `${s.script} ${n(mean(s.script, s.deltaRatioChars!))} / ${first} ${n(mean(first, s.deltaRatioChars!))} at ${n(s.deltaRatioChars!)} chars`,
    );
  return [
    `× ${first} per char: the slopes' ratio, the text's cost per char with the wrapper left out`,
    ...(same.length
      ? [
          `Δ × ${first} same chars: mean Δ over mean Δ of runs that delivered the same chars, wrapper included (the instructions write-up's 2.4×): ${same.join("; ")}`,
        ]
      : []),
  ];
}
