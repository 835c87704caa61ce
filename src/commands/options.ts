import type { Options } from "yargs";
import { UsageError } from "../errors.js";
import { FORMATS } from "../render/formats.js";
import type { Argv, CommandSpec } from "./registry.js";

/**
 * The common options (CONTRACT.md "Common options"). Not global: each command registers the ones
 * its spec lists in `common`, so one that means nothing there (`sessions --baseline`) is refused.
 */
export const COMMON_OPTIONS = {
  // No yargs default: `--json` may only be combined with a --format the user did not give (or json).
  format: { choices: FORMATS, describe: "output format (default table)" },
  json: { type: "boolean", alias: "j", describe: "same as --format json" },
  output: { type: "string", alias: "o", describe: "write the document to this file instead of stdout" },
  tz: {
    type: "string",
    describe: "time zone for times in tables and markdown (default the local zone, TZ honoured; UTC allowed); JSON stays UTC",
  },
  // Not `array: true`: an array option would swallow the target that follows it (`--claude-dir DIR ID`).
  // Repeating the flag still collects an array (yargs' duplicate-arguments-array).
  "claude-dir": {
    type: "string",
    describe: "Claude config dir to search (repeatable); default CLAUDE_CONFIG_DIR, then ~/.config/claude and ~/.claude",
    coerce: (v: string | string[]) => (Array.isArray(v) ? v : [v]),
  },
  "follow-links": {
    type: "boolean",
    describe:
      "follow a config dir's projects/ and project folders that are symlinks leading out of it (off: a copied evidence tree could plant them)",
  },
  project: { type: "string", describe: "only sessions whose cwd (or project folder) contains this text" },
  since: { type: "string", describe: "only sessions active since a date (2026-11-01, in --tz) or a span back from now (7d, 12h, 30m)" },
  until: { type: "string", describe: "only sessions active until a date (2026-11-01 includes that day) or a span back from now" },
  "debug-file": { type: "string", describe: "Claude Code debug log (--debug-file) to read alongside" },
  "rpc-log": { type: "string", describe: "MCP JSON-RPC message log to read alongside" },
  "stream-json": { type: "string", describe: "output of claude -p --output-format stream-json|json" },
  baseline: { type: "string", describe: "a run without the thing measured (target), for deltas" },
  redact: { type: "boolean", describe: "home dirs to ~, ids shortened (for publishing)" },
  strict: { type: "boolean", describe: "exit 1 when any line is malformed or damaged (health.damaged)" },
  subagents: { type: "boolean", default: true, describe: "read the session's subagent transcripts (--no-subagents turns off)" },
  color: { type: "boolean", describe: "colour even when not a terminal (FORCE_COLOR too); --no-color turns it off, NO_COLOR wins" },
  wide: { type: "boolean", describe: "terminal tables: every column at full width, not fitted to the terminal" },
  columns: { type: "string", describe: "terminal tables: only these columns, in this order (keys or headers, comma-separated)" },
} satisfies Record<string, Options>;

export type CommonName = keyof typeof COMMON_OPTIONS;

/** What every command that prints a document takes. */
export const OUTPUT = ["format", "json", "output", "tz", "redact", "color", "wide", "columns"] as const satisfies readonly CommonName[];
/** Where sessions are looked for, and whether links out of it are followed: every command that takes one takes both. */
export const CONFIG_DIR = ["claude-dir", "follow-links"] as const satisfies readonly CommonName[];
/** The session filters, for every command that looks sessions up. */
export const FILTERS = ["project", "since", "until"] as const satisfies readonly CommonName[];
/** A session looked up by id, path, stdin or (no target on a terminal) the newest one. */
export const LOOKUP = ["strict", ...CONFIG_DIR, "subagents", ...FILTERS] as const satisfies readonly CommonName[];

/** The common options a command takes, by its spec; a spec that does not say takes them all (as before specs said). */
export function commonFor(spec: CommandSpec): Record<string, Options> {
  // A command's own option of the same name (compare's --columns) wins over the common one.
  return Object.fromEntries(
    commonNames(spec)
      .filter((n) => !spec.options?.[n])
      .map((n) => [n, COMMON_OPTIONS[n]]),
  );
}

export const commonNames = (spec: CommandSpec): readonly CommonName[] =>
  (spec.common ?? Object.keys(COMMON_OPTIONS)) as readonly CommonName[];

/** The commands a common option goes with, for the message that refuses it elsewhere. */
export function commandsTaking(name: string, commands: CommandSpec[]): string[] {
  return commands.filter((c) => commonNames(c).includes(name as CommonName)).map((c) => c.command.split(" ")[0]!);
}

/** Flags that may be given more than once; every other flag takes one value. */
const REPEATABLE = new Set(["claude-dir"]);

const takesValue = (o: Options) => o.type === "string" || o.type === "number" || o.choices !== undefined;
const short = (o: Options) => [o.alias ?? []].flat().filter((a) => a.length === 1);

/**
 * yargs reads `--since -7d` as the flags -7 and -d, and `--format --json` as an empty format. Here a
 * value-taking flag takes the next word whatever it starts with, unless that word is a flag itself
 * (`--…`, or a known short flag), which is a usage error: the value is missing.
 */
export function normaliseArgs(args: string[], commands: CommandSpec[]): string[] {
  const all = [COMMON_OPTIONS as Record<string, Options>, ...commands.map((c) => c.options ?? {})];
  const valued = new Set<string>();
  const shortFlags = new Set(["-h", "-v"]);
  for (const opts of all)
    for (const [name, o] of Object.entries(opts)) {
      if (takesValue(o)) valued.add(name);
      for (const s of short(o)) shortFlags.add(`-${s}`);
    }
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      out.push(...args.slice(i));
      break;
    }
    // yargs drops a lone "-" from an array positional (`servers - x`) but keeps "", which targets read as stdin.
    if (a === "-") {
      out.push("");
      continue;
    }
    if (a.startsWith("--") && a.endsWith("=") && valued.has(a.slice(2, -1))) throw new UsageError(`${a.slice(0, -1)} needs a value`);
    if (!a.startsWith("--") || a.includes("=") || !valued.has(a.slice(2))) {
      out.push(a);
      continue;
    }
    const next = args[i + 1];
    if (next === undefined) throw new UsageError(`${a} needs a value`);
    if (next.startsWith("--") || shortFlags.has(next)) throw new UsageError(`${a} needs a value (got the flag ${next})`);
    out.push(`${a}=${next}`);
    i++;
  }
  return out;
}

/** What yargs lets through but a user did not mean: a one-value flag twice, an empty value, a number that is not one, --json against --format. */
export function checkArgv(argv: Argv, spec: CommandSpec): void {
  const defs = { ...commonFor(spec), ...(spec.options ?? {}) };
  for (const [name, o] of Object.entries(defs)) {
    const v = argv[name];
    if (v === undefined) continue;
    if (REPEATABLE.has(name) || o.array) {
      if ([v].flat().some((x) => x === "")) throw new UsageError(`--${name} needs a value`);
      continue;
    }
    if (Array.isArray(v)) throw new UsageError(`--${name} given more than once; give it once`);
    if (v === "" && takesValue(o)) throw new UsageError(`--${name} needs a value`);
    if (o.type === "number" && Number.isNaN(v)) throw new UsageError(`--${name} needs a number`);
  }
  if (argv.json === true && argv.format !== undefined && argv.format !== "json") {
    throw new UsageError(`--json and --format ${String(argv.format)} contradict each other; give one`);
  }
}
