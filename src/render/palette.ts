import { Chalk } from "chalk";

type Paint = (s: string) => string;

/** Roles the renderers ask for; never chalk directly, so `--no-color` and tests get identity functions. */
export interface Palette {
  heading: Paint;
  warn: Paint;
  delta: Paint;
  dim: Paint;
  good: Paint;
}

const id: Paint = (s) => s;
export const plain: Palette = { heading: id, warn: id, delta: id, dim: id, good: id };

export function colored(): Palette {
  const c = new Chalk({ level: 1 });
  return { heading: (s) => c.bold(s), warn: (s) => c.yellow(s), delta: (s) => c.cyan(s), dim: (s) => c.dim(s), good: (s) => c.green(s) };
}

/** Colour only on a TTY, and never with NO_COLOR or `--no-color`. */
export function paletteFor(opts: { color?: boolean }, out: { isTTY: boolean; env: NodeJS.ProcessEnv }): Palette {
  if (opts.color === false) return plain;
  if (out.env.NO_COLOR !== undefined && out.env.NO_COLOR !== "") return plain;
  return out.isTTY ? colored() : plain;
}
