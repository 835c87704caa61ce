import { Chalk } from "chalk";

type Paint = (s: string) => string;

/** Roles the renderers ask for; never chalk directly, so `--no-color` and tests get identity functions. */
export interface Palette {
  heading: Paint;
  delta: Paint;
  dim: Paint;
}

const id: Paint = (s) => s;
export const plain: Palette = { heading: id, delta: id, dim: id };

export function colored(): Palette {
  const c = new Chalk({ level: 1 });
  return { heading: (s) => c.bold(s), delta: (s) => c.cyan(s), dim: (s) => c.dim(s) };
}

/**
 * NO_COLOR wins over everything; then `--no-color`; then `--color` or FORCE_COLOR (any value but 0/false)
 * force it on a pipe or file; else colour only on a TTY.
 */
export function paletteFor(opts: { color?: boolean }, out: { isTTY: boolean; env: NodeJS.ProcessEnv }): Palette {
  if (out.env.NO_COLOR !== undefined && out.env.NO_COLOR !== "") return plain;
  if (opts.color === false) return plain;
  if (opts.color === true) return colored();
  const force = out.env.FORCE_COLOR;
  if (force !== undefined) return /^(?:0|false)$/i.test(force) ? plain : colored();
  return out.isTTY ? colored() : plain;
}
