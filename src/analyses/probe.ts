/**
 * Probe values of a lab text (FORMATS.md 2.6): the seed's instructions open with `BEGIN codeword: X.`,
 * close with `END codeword: Y.` and carry `[at N]` markers, so what a model can answer tells what it
 * was given. Patterns are configurable; a named group (`begin`, `end`, `n`) or the first group is the value.
 */
export interface ProbePatterns {
  begin: RegExp;
  end: RegExp;
  marker: RegExp;
}

export const DEFAULT_PROBE_SOURCES = {
  begin: String.raw`BEGIN codeword: (?<begin>[A-Z]+-\d+)\.`,
  end: String.raw`END codeword: (?<end>[A-Z]+-\d+)\.`,
  marker: String.raw`\[at (?<n>\d+)\]`,
} as const;

/** Compiles the patterns; throws SyntaxError naming the option on a bad regex. */
export function compileProbe(src: Partial<Record<keyof ProbePatterns, string>> = {}): ProbePatterns {
  const one = (k: keyof ProbePatterns): RegExp => {
    const s = src[k] ?? DEFAULT_PROBE_SOURCES[k];
    try {
      return new RegExp(s, k === "marker" ? "g" : "");
    } catch (e) {
      throw new SyntaxError(`--probe-${k}: ${(e as Error).message}`);
    }
  };
  return { begin: one("begin"), end: one("end"), marker: one("marker") };
}

export interface Probe {
  begin: string | null;
  /** null when the text was cut before the END codeword. */
  end: string | null;
  /** Largest `[at N]` that survived: the value a model that saw the text should answer. */
  lastMarker: number | null;
  markers: number;
}

function valueOf(m: RegExpExecArray): string {
  const named = m.groups ? Object.values(m.groups).find((v) => v !== undefined) : undefined;
  return named ?? m[1] ?? m[0];
}

/** The probe values a text carries, or null when it carries none of them. */
export function extractProbe(text: string, p: ProbePatterns): Probe | null {
  const b = p.begin.exec(text);
  const e = p.end.exec(text);
  let last: number | null = null;
  let markers = 0;
  const rx = new RegExp(p.marker.source, p.marker.flags.includes("g") ? p.marker.flags : p.marker.flags + "g");
  for (const m of text.matchAll(rx)) {
    const n = Number(valueOf(m as RegExpExecArray));
    if (!Number.isFinite(n)) continue;
    markers += 1;
    if (last === null || n > last) last = n;
  }
  if (!b && !e && markers === 0) return null;
  return { begin: b ? valueOf(b) : null, end: e ? valueOf(e) : null, lastMarker: last, markers };
}

/** The answer as the seed's prompt asks for it: `BEGIN=<w> END=<w> LAST=<n>`, `NONE` for what is missing. */
export interface ParsedAnswer {
  begin: string | null;
  end: string | null;
  last: string | null;
  /** `keyed` when the BEGIN=/END=/LAST= form was found; else `free` (values looked for in the text). */
  form: "keyed" | "free";
}

/**
 * The value without the `.`, `)` and `]` that end it (`END=KESTREL-4417.`). A loop from the end: the regex
 * `/[.)\]]+$/` tried again at every point of a long run of dots, the square of its length.
 */
function withoutClosers(v: string): string {
  let e = v.length;
  while (e > 0 && (v[e - 1] === "." || v[e - 1] === ")" || v[e - 1] === "]")) e--;
  return v.slice(0, e);
}

export function parseAnswer(text: string): ParsedAnswer {
  const key = (k: string) => {
    const v = new RegExp(String.raw`\b${k}\s*=\s*([^\s,;]+)`).exec(text)?.[1];
    return v === undefined ? null : withoutClosers(v);
  };
  const begin = key("BEGIN");
  const end = key("END");
  const last = key("LAST");
  return { begin, end, last, form: begin !== null || end !== null || last !== null ? "keyed" : "free" };
}

export interface AnswerCheck {
  /** The values a model that saw the delivered text should answer (`NONE` for missing). */
  expected: { begin: string; end: string; last: string };
  got: { begin: string | null; end: string | null; last: string | null };
  form: "keyed" | "free";
  matches: boolean;
  mismatches: string[];
  /** Codeword-like tokens in the answer that no delivered text carried: what the write-up checked never happened. */
  invented: string[];
}

const CODEWORD = /\b[A-Z]{3,}-\d{2,}\b/g;

/**
 * Compares an answer with what was delivered. `delivered` is every probe value the session's texts
 * carried (to tell a wrong-but-delivered codeword from an invented one).
 */
export function checkAnswer(answer: string, expectedProbe: Probe | null, delivered: ReadonlySet<string>): AnswerCheck {
  const expected = {
    begin: expectedProbe?.begin ?? "NONE",
    end: expectedProbe?.end ?? "NONE",
    last: expectedProbe?.lastMarker != null ? String(expectedProbe.lastMarker) : "NONE",
  };
  const parsed = parseAnswer(answer);
  const mismatches: string[] = [];
  let got: AnswerCheck["got"];
  if (parsed.form === "keyed") {
    got = { begin: parsed.begin, end: parsed.end, last: parsed.last };
    for (const k of ["begin", "end", "last"] as const) {
      if (got[k] === null && expected[k] !== "NONE") mismatches.push(`${k.toUpperCase()}: not answered, delivered ${expected[k]}`);
      else if (got[k] !== null && got[k] !== expected[k])
        mismatches.push(`${k.toUpperCase()}: answered ${got[k]}, delivered ${expected[k]}`);
    }
  } else {
    // Free text: each delivered value must appear, and no missing one may be claimed.
    got = { begin: null, end: null, last: null };
    for (const k of ["begin", "end"] as const) {
      const v = expected[k];
      if (v !== "NONE" && answer.includes(v)) got[k] = v;
      else if (v !== "NONE") mismatches.push(`${k.toUpperCase()}: ${v} delivered but not in the answer`);
    }
  }
  const invented = [...new Set(answer.match(CODEWORD) ?? [])].filter((w) => !delivered.has(w)).sort();
  for (const w of invented) mismatches.push(`${w} was never delivered`);
  return { expected, got, form: parsed.form, matches: mismatches.length === 0, mismatches, invented };
}
