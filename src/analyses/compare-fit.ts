/**
 * The write-up's by-hand fit, done over the runs: Δ tokens (request 1 against the baseline) =
 * wrapper + chars / charsPerToken, by least squares per script. A script whose runs share one size
 * cannot fix both numbers; it takes the wrapper fitted on the others (seed 000: the ≈51-token heading
 * and wrapper from the English runs, then 1.23 Japanese chars per token). Pure.
 */
export interface FitPoint {
  run: string;
  label: string;
  script: string;
  chars: number;
  deltaTokens: number;
}

export interface ScriptFit {
  script: string;
  runs: number;
  sizes: number;
  wrapperTokens: number | null;
  tokensPerChar: number | null;
  charsPerToken: number | null;
  /** Where the wrapper came from: fitted on this script's runs, or shared from the others'. */
  wrapperFrom: "fitted" | "shared" | null;
  /**
   * tokensPerChar / the first fitted script's: the text alone, wrapper left out (2.49 for the write-up's
   * Japanese). Not the write-up's 2.4×, which is deltaRatio.
   */
  ratio: number | null;
  /**
   * The write-up's "2.4×": this script's mean Δ over the first fitted script's at the same delivered chars
   * (1,727 / 721 at 2,061), wrapper included; at the largest size both have, null when they share none.
   */
  deltaRatio: number | null;
  /** The delivered chars deltaRatio compares at. */
  deltaRatioChars: number | null;
}

export interface FitResidual extends FitPoint {
  fitted: number | null;
  residual: number | null;
}

export interface InstructionsFit {
  scripts: ScriptFit[];
  residuals: FitResidual[];
}

/**
 * latin: about one UTF-8 byte a char (the truncation marker's `…` adds two bytes); cjk: 2.5 or more
 * (CJK is three bytes a char); mixed between. The lab's English and Japanese texts are 1.00 and 2.65.
 */
export function scriptOf(codePoints: number, utf8Bytes: number): string {
  if (codePoints <= 0) return "latin";
  const perChar = utf8Bytes / codePoints;
  return perChar < 1.2 ? "latin" : perChar >= 2.5 ? "cjk" : "mixed";
}

export function fitInstructions(points: FitPoint[]): InstructionsFit {
  const byScript = new Map<string, FitPoint[]>();
  for (const p of points) byScript.set(p.script, [...(byScript.get(p.script) ?? []), p]);
  const fits = new Map<string, { a: number | null; b: number | null; from: ScriptFit["wrapperFrom"] }>();
  for (const [script, ps] of byScript) {
    const line = leastSquares(ps.map((p) => [p.chars, p.deltaTokens]));
    fits.set(script, line ? { a: line.a, b: line.b, from: "fitted" } : { a: null, b: null, from: null });
  }
  // The wrapper (heading, "## name", <system-reminder>) does not depend on the text's script.
  const fitted = [...fits.values()].filter((f) => f.from === "fitted");
  const shared = fitted.length ? fitted.reduce((n, f) => n + f.a!, 0) / fitted.length : null;
  for (const [script, f] of fits) {
    if (f.from !== null || shared === null) continue;
    const ps = byScript.get(script)!;
    const chars = ps.reduce((n, p) => n + p.chars, 0);
    if (chars > 0) fits.set(script, { a: shared, b: ps.reduce((n, p) => n + p.deltaTokens - shared, 0) / chars, from: "shared" });
  }
  const reference = [...fits.values()].find((f) => f.from === "fitted")?.b ?? null;
  const refScript = [...fits].find(([, f]) => f.from === "fitted")?.[0];
  const scripts = [...byScript].map(([script, ps]): ScriptFit => {
    const f = fits.get(script)!;
    return {
      script,
      runs: ps.length,
      sizes: new Set(ps.map((p) => p.chars)).size,
      wrapperTokens: f.a,
      tokensPerChar: f.b,
      charsPerToken: f.b ? 1 / f.b : null,
      wrapperFrom: f.from,
      ratio: f.b !== null && reference ? f.b / reference : null,
      ...sameChars(script),
    };
  });
  function sameChars(script: string): Pick<ScriptFit, "deltaRatio" | "deltaRatioChars"> {
    // The first fitted script is what the others are held against: nothing to compare it with.
    if (refScript === undefined || script === refScript) return { deltaRatio: null, deltaRatioChars: null };
    const ref = new Set(byScript.get(refScript)!.map((p) => p.chars));
    const at = Math.max(-Infinity, ...byScript.get(script)!.flatMap((p) => (ref.has(p.chars) ? [p.chars] : [])));
    if (at === -Infinity) return { deltaRatio: null, deltaRatioChars: null };
    const mine = meanDeltaAt(points, script, at)!;
    const theirs = meanDeltaAt(points, refScript, at)!;
    return { deltaRatio: theirs !== 0 ? mine / theirs : null, deltaRatioChars: at };
  }
  const residuals = points.map((p): FitResidual => {
    const f = fits.get(p.script)!;
    const at = f.a !== null && f.b !== null ? f.a + f.b * p.chars : null;
    return { ...p, fitted: at === null ? null : cents(at), residual: at === null ? null : cents(p.deltaTokens - at) };
  });
  return { scripts, residuals };
}

/** Two decimals, and no -0: a residual of a token's hundredth is noise. */
const cents = (x: number): number => Math.round(x * 100) / 100 + 0;

/** y = a + b·x over the points; null unless at least two distinct x. */
function leastSquares(xy: Array<[number, number]>): { a: number; b: number } | null {
  const n = xy.length;
  if (new Set(xy.map(([x]) => x)).size < 2) return null;
  const mx = xy.reduce((s, [x]) => s + x, 0) / n;
  const my = xy.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = xy.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const sxy = xy.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const b = sxy / sxx;
  return { a: my - b * mx, b };
}

/** The mean Δ tokens of `script`'s runs that delivered `chars` (what deltaRatio divides); null when none did. */
export function meanDeltaAt(points: readonly FitPoint[], script: string, chars: number): number | null {
  const ds = points.filter((p) => p.script === script && p.chars === chars).map((p) => p.deltaTokens);
  return ds.length ? ds.reduce((a, b) => a + b, 0) / ds.length : null;
}
