import type { Options } from "yargs";
import { commonFor } from "./options.js";
import type { Argv, CommandSpec } from "./registry.js";

/**
 * The arguments yargs would hand a command, for the plain command lines nearly every run is: the command
 * word, its positionals, and its own flags as `--flag`, `--no-flag`, `--flag=value` (normaliseArgs joins
 * values) or `-j`. Anything else (help, as a flag or a word, a number flag, an unknown or repeated flag,
 * a value not among the choices, a missing or extra positional, `--`) is undefined: yargs parses it and
 * says what is wrong, so every usage error stays yargs'. Importing yargs was a third of a small command's start-up. A test
 * holds the result deep-equal to yargs' on every command line it can build.
 */
export function quickArgv(words: string[], commands: CommandSpec[]): Argv | undefined {
  const name = words[0];
  const spec = commands.find((c) => c.command.split(" ")[0] === name);
  if (!spec || name === undefined) return undefined;
  const defs: Record<string, Options> = { ...commonFor(spec), ...(spec.options ?? {}) };
  const shorts = new Map<string, string>();
  for (const [n, o] of Object.entries(defs)) for (const a of [o.alias ?? []].flat()) if (a.length === 1) shorts.set(`-${a}`, n);
  const given = new Map<string, unknown>();
  const positional: string[] = [];
  for (const w of words.slice(1)) {
    const flag = flagOf(w, defs, shorts);
    if (flag === null) {
      // yargs-parser takes a bare true/false after a boolean flag as its value, and yargs reads a
      // positional `help` as --help (`ccforensics report help` prints report's help).
      if (w.startsWith("-") || w === "true" || w === "false" || w === "help") return undefined;
      positional.push(w);
    } else if (flag === undefined || given.has(flag[0])) return undefined;
    else given.set(flag[0], flag[1]);
  }
  const argv: Record<string, unknown> = { _: [name], $0: "ccforensics" };
  const set = (key: string, value: unknown) => {
    for (const k of [key, camel(key), ...[defs[key]?.alias ?? []].flat()]) argv[k] = value;
  };
  for (const [n, o] of Object.entries(defs)) {
    if (given.has(n)) set(n, o.coerce ? o.coerce(given.get(n)) : given.get(n));
    else if (o.default !== undefined) set(n, o.default);
  }
  if (!placePositionals(spec.command, positional, (k, v) => (argv[k] = argv[camel(k)] = v))) return undefined;
  return argv as Argv;
}

/** A flag word as [option, value]; null when the word is no flag; undefined when it is one this path leaves to yargs. */
function flagOf(w: string, defs: Record<string, Options>, shorts: Map<string, string>): [string, unknown] | null | undefined {
  if (shorts.has(w)) {
    const n = shorts.get(w)!;
    return defs[n]!.type === "boolean" ? [n, true] : undefined;
  }
  if (!w.startsWith("--")) return null;
  const eq = w.indexOf("=");
  const key = eq < 0 ? w.slice(2) : w.slice(2, eq);
  if (eq < 0) {
    if (isBoolean(defs[key])) return [key, true];
    const negated = key.startsWith("no-") ? key.slice(3) : undefined;
    return negated !== undefined && isBoolean(defs[negated]) ? [negated, false] : undefined;
  }
  const o = defs[key];
  const value = w.slice(eq + 1);
  if (!o || o.array || o.type === "boolean" || o.type === "number" || o.type === "count") return undefined;
  if (o.choices !== undefined) return o.type === undefined && [o.choices].flat().includes(value) ? [key, value] : undefined;
  return o.type === "string" ? [key, value] : undefined;
}

const isBoolean = (o: Options | undefined): boolean => o !== undefined && o.type === "boolean" && !o.array;

/** yargs' camel-case expansion of a dashed name. */
const camel = (s: string): string => s.replace(/-(.)/g, (_m, c: string) => c.toUpperCase());

/** Fills the command string's positionals (`<file>`, `[target]`, `[targets..]`) as yargs does; false when the words do not fit them. */
function placePositionals(command: string, words: string[], set: (key: string, value: unknown) => void): boolean {
  let at = 0;
  for (const slot of command.split(" ").slice(1)) {
    const m = /^([<[])([\w-]+)(\.\.)?[>\]]$/.exec(slot);
    if (!m) return false;
    const [, bracket, key, rest] = m;
    if (rest) {
      if (bracket === "<" && at === words.length) return false;
      set(key!, words.slice(at));
      at = words.length;
    } else if (at < words.length) set(key!, words[at++]);
    else if (bracket === "<") return false;
  }
  return at === words.length;
}
