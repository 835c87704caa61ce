import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { COMMANDS } from "../../src/commands/index.js";
import { normaliseArgs } from "../../src/commands/options.js";
import { buildParser } from "../../src/commands/parser.js";
import type { CommandOutput } from "../../src/report/envelope.js";
import { ROOT, sample } from "../helpers.js";

/**
 * A command's output before rendering (the report model), as the CLI would compute it for `args`:
 * the same parser and command specs, with the IO facts `main` hands them.
 */
export async function commandOutput(args: string[]): Promise<CommandOutput> {
  let out: CommandOutput | undefined;
  const env = { TZ: "UTC", NO_COLOR: "1", HOME: sample(".no-home") };
  const sink = { write: () => true, once: () => sink };
  const parser = buildParser(
    { columns: undefined },
    async (spec, a) => {
      a.format ??= "table";
      Object.assign(a, { stdin: Readable.from([]), env, cwd: ROOT, stdinIsTTY: false, stderr: sink, stderrIsTTY: false });
      out = await spec.run(a);
    },
    [],
    COMMANDS,
  );
  await parser.parseAsync(normaliseArgs(args, COMMANDS), {}, () => {});
  if (!out) throw new Error(`no command ran for ${args.join(" ")}`);
  return out;
}

/** The first file of a folder (…/projects/* → the first project folder's first transcript): the `listDir` the raw-row and JSON-byte tests give `sampleCommands`. */
export function firstFile(dir: string): string {
  if (dir.endsWith("/*")) dir = join(dirname(dir), readdirSync(dirname(dir)).sort()[0]!);
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => d.name)
    .sort();
  const f = names.find((n) => n.endsWith(".jsonl")) ?? names[0];
  if (f === undefined) return firstFile(join(dir, readdirSync(dir).sort()[0]!));
  return join(dir, f);
}

const INSTR = (name: string) => sample("instructions", name);
const glob1 = (dir: string) => `${dir}/projects/${"*"}`;

/** One invocation per table-building command and sample family (what the goldens and README show, and more). */
export function sampleCommands(listDir: (dir: string) => string): string[][] {
  const one = (dir: string) => listDir(glob1(dir));
  return [
    ["sessions", "--claude-dir", sample("claude-home")],
    ["requests", sample("basic", "11111111-2222-4333-8444-555555555555.jsonl")],
    ["requests", "2a2a2a2a", "--claude-dir", sample("subagents", "claude")],
    ["requests", one(sample("outputs", "cleared", "claude"))],
    ["inventory", sample("damaged", "33333333-4444-4555-8666-777777777777.jsonl")],
    [
      "instructions",
      one(INSTR("ja-3000-truncated")),
      "--debug-file",
      listDir(`${INSTR("ja-3000-truncated")}/debug`),
      "--baseline",
      one(INSTR("baseline")),
      "--wrapper-tokens",
      "51",
    ],
    ["instructions", one(INSTR("removed-changed"))],
    [
      "instructions",
      one(INSTR("late-server")),
      "--debug-file",
      listDir(`${INSTR("late-server")}/debug`),
      "--stream-json",
      sample("logs", "claude-p", "late-server.stream.jsonl"),
    ],
    [
      "outputs",
      "5e1c0a52-0003-4000-8000-a00000066000",
      "--claude-dir",
      sample("outputs", "staircase", "claude"),
      "--rpc-log",
      sample("outputs", "staircase", "rpc-tap.jsonl"),
    ],
    ["outputs", one(sample("outputs", "reads", "claude")), "--claude-dir", sample("outputs", "reads", "claude")],
    ["outputs", "--staircase", "--claude-dir", sample("outputs", "staircase", "claude"), one(sample("outputs", "staircase", "claude"))],
    ["debug", sample("logs", "debug", "late-server.debug.txt"), "--stream-json", sample("logs", "claude-p", "late-server.stream.jsonl")],
    ["debug", sample("logs", "debug", "large-output.debug.txt"), "--all-events"],
    ["rpc", sample("logs", "rpc", "dual-era-trap.mixed.log")],
    ["rpc", sample("logs", "rpc", "legacy-fallback.lab.jsonl")],
    [
      "report",
      "c0ffee00",
      "--claude-dir",
      sample("claude-home"),
      "--rpc-log",
      sample("demo", "rpc-log.jsonl"),
      "--stream-json",
      sample("demo", "claude-p.stream.jsonl"),
    ],
    ["compare", sample("runs")],
    [
      "compare",
      sample("runs", "manifest.json"),
      "--columns",
      "label,run,firstRequestTokens,deltaVsBaseline,tokensPerChar,costUsd,checks,durationMs",
    ],
  ];
}
