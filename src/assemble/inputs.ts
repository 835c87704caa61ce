import type { InputFile } from "../sources/input.js";

/** Inputs for the envelope, in reading order, once each. */
export function envelopeInputs(...lists: InputFile[][]): InputFile[] {
  const seen = new Set<string>();
  const out: InputFile[] = [];
  for (const l of lists)
    for (const i of l) {
      const k = `${i.kind}:${i.path}`;
      if (!seen.has(k)) {
        seen.add(k);
        out.push(i);
      }
    }
  return out;
}
