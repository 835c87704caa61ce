
import yargs, { type Argv as YArgv } from "yargs";

import { COMMANDS } from "./commands/index.js";
import type { Argv, CommandSpec } from "./commands/registry.js";
import { RuntimeError, StrictError, UsageError, exitCodeOf, messageOf } from "./errors.js";
import { writeDocument, type Format } from "./render/emit.js";
import { paletteFor } from "./render/palette.js";
import { sanitize } from "./render/sanitize.js";
import { redactOutput } from "./report/redact.js";
import { toolVersion } from "./report/envelope.js";

const FORMATS = ["table", "markdown", "json", "csv"] as const;

/** Builds the parser from the command specs; exported so tests can inspect help. */
export function buildParser(args: string[]): YArgv {
  let y: YArgv = (yargs(args) as unknown as YArgv)
    .scriptName("ccforensics")
    .usage("ccforensics <command> [target..] [options]\n\nForensics on Claude Code's own evidence: transcripts, debug logs, MCP message logs, claude -p output.")
    .version(toolVersion())
    .option("format", { choices: FORMATS, default: "table" as Format, describe: "output format", global: true })
    .option("json", { type: "boolean", describe: "same as --format json", global: true })
    // Not `array: true`: an array option would swallow the target that follows it (`--claude-dir DIR ID`).
    // Repeating the flag still collects an array (yargs' duplicate-arguments-array).
    .option("claude-dir", {
      type: "string",
      describe: "Claude config dir to search (repeatable); default CLAUDE_CONFIG_DIR, then ~/.config/claude and ~/.claude",
      global: true,
      coerce: (v: string | string[]) => (Array.isArray(v) ? v : [v]),
    })
    .option("debug-file", { type: "string", describe: "Claude Code debug log (--debug-file) to read alongside", global: true })
    .option("rpc-log", { type: "string", describe: "MCP JSON-RPC message log to read alongside", global: true })
    .option("stream-json", { type: "string", describe: "output of claude -p --output-format stream-json|json", global: true })
    .option("baseline", { type: "string", describe: "a run without the thing measured (target), for deltas", global: true })
    .option("redact", { type: "boolean", describe: "home dirs to ~, ids shortened (for publishing)", global: true })
    .option("strict", { type: "boolean", describe: "exit 1 when any line is malformed", global: true })
    .option("subagents", { type: "boolean", default: true, describe: "read the session's subagent transcripts (--no-subagents turns off)", global: true })
    .option("color", { type: "boolean", describe: "colour on a TTY (--no-color turns off)", global: true })
    .strict()
    .demandCommand(1, "give a command; see --help")
    .recommendCommands()
    .help()
    .wrap(Math.min(120, process.stdout.columns || 100))
    .fail((msg, err) => {
      throw err ?? new UsageError(msg);
    });
  for (const spec of COMMANDS) y = register(y, spec);
  return y;
}

function register(y: YArgv, spec: CommandSpec): YArgv {
  return y.command(
    spec.command,
    spec.describe,
    (b) => {
      for (const [name, p] of Object.entries(spec.positionals ?? {})) b.positional(name, { type: "string", describe: p.describe, array: p.array });
      for (const [name, o] of Object.entries(spec.options ?? {})) b.option(name, o);
      for (const [cmd, what] of spec.examples) b.example(cmd, what);
      return b;
    },
    async (argv) => {
      const a = argv as unknown as Argv & { json?: boolean; redact?: boolean };
      if (a.json) a.format = "json";
      const out = await spec.run(a);
      if (spec.serves) return;
      if (a.strict && out.health.malformedCount > 0) {
        const first = out.health.malformed.slice(0, 10).map((m) => `  ${m.file}:${m.line}: ${m.reason}`);
        throw new StrictError(`--strict: ${out.health.malformedCount} malformed line(s):\n${first.join("\n")}`);
      }
      const shown = a.redact ? redactOutput(out) : out;
      for (const w of shown.report.warnings) process.stderr.write(`ccforensics: ${sanitize(w)}\n`);
      await writeDocument(process.stdout, shown, a.format, paletteFor({ color: a.color }));
      if (out.failure) throw new RuntimeError(out.failure);
    },
  );
}

/** Runs the CLI with the given arguments; returns the exit code. All errors end here (one handler). */
export async function main(args: string[]): Promise<number> {
  try {
    await buildParser(args).parseAsync();
    return 0;
  } catch (err) {
    const msg = messageOf(err).split("\n").map(sanitize).join("\n");
    process.stderr.write(`ccforensics: ${msg}\n`);
    return exitCodeOf(err);
  }
}
