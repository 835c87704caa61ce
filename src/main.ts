import yargs, { type Argv as YArgv } from "yargs";

import { COMMANDS } from "./commands/index.js";
import { GLOBAL_OPTIONS, checkArgv, normaliseArgs } from "./commands/options.js";
import type { Argv, CommandSpec } from "./commands/registry.js";
import { RuntimeError, StrictError, UsageError, exitCodeOf, messageOf } from "./errors.js";
import { writeOut, type Io } from "./io.js";
import { writeDocument } from "./render/emit.js";
import { paletteFor } from "./render/palette.js";
import { sanitize } from "./render/sanitize.js";
import { writeFiles } from "./output/files.js";
import { redactOutput } from "./report/redact.js";
import { toolVersion } from "./report/envelope.js";

export type { Io } from "./io.js";

/** Builds the parser from the command specs; exported so tests can inspect help. A new instance per call: no state is shared between runs. */
export function buildParser(io: Pick<Io, "columns">, run: (spec: CommandSpec, argv: Argv) => Promise<void> = async () => {}): YArgv {
  let y: YArgv = (yargs() as unknown as YArgv)
    .scriptName("ccforensics")
    .usage("ccforensics <command> [target..] [options]\n\nForensics on Claude Code's own evidence: transcripts, debug logs, MCP message logs, claude -p output.")
    .version(toolVersion())
    // yargs would otherwise pick the language from process.env and exit the process after --help.
    .locale("en")
    .exitProcess(false)
    .options(GLOBAL_OPTIONS)
    .strict()
    .demandCommand(1, "give a command; see --help")
    .recommendCommands()
    .help()
    .wrap(Math.min(120, io.columns || 100))
    .fail((msg, err) => {
      // yargs spreads some messages (invalid choices) over lines; a usage error is one line.
      throw err ?? new UsageError(msg.replace(/\s*\n\s*/g, " ").trim());
    });
  for (const spec of COMMANDS) y = register(y, spec, run);
  return y;
}

function register(y: YArgv, spec: CommandSpec, run: (spec: CommandSpec, argv: Argv) => Promise<void>): YArgv {
  return y.command(
    spec.command,
    spec.describe,
    (b) => {
      for (const [name, p] of Object.entries(spec.positionals ?? {})) b.positional(name, { type: "string", describe: p.describe, array: p.array });
      for (const [name, o] of Object.entries(spec.options ?? {})) b.option(name, o);
      for (const [cmd, what] of spec.examples) b.example(cmd, what);
      return b;
    },
    (argv) => run(spec, argv as unknown as Argv),
  );
}

async function runCommand(spec: CommandSpec, a: Argv & { json?: boolean; redact?: boolean }, io: Io): Promise<void> {
  checkArgv(a, spec);
  if (a.json) a.format = "json";
  a.format ??= "table";
  Object.assign(a, { stdin: io.stdin, env: io.env, cwd: io.cwd, stdinIsTTY: io.stdinIsTTY, stderr: io.stderr, stderrIsTTY: io.stderrIsTTY });
  const out = await spec.run(a);
  if (spec.serves) return;
  if (a.strict && out.health.malformedCount > 0) {
    const first = out.health.malformed.slice(0, 10).map((m) => `  ${m.file}:${m.line}: ${m.reason}`);
    throw new StrictError(`--strict: ${out.health.malformedCount} malformed line(s):\n${first.join("\n")}`);
  }
  const shown = a.redact ? redactOutput(out) : out;
  // The one output step: files (charts) first, so a refused path fails before stdout is used; their
  // contents redacted with the document, their paths and guards as given.
  await writeFiles((out.files ?? []).map((f, i) => ({ ...f, spec: shown.files?.[i]?.spec ?? f.spec })), io.cwd);
  for (const w of shown.document.warnings) io.stderr.write(`ccforensics: ${sanitize(w)}\n`);
  await writeDocument(io.stdout, shown, a.format, paletteFor({ color: a.color }, { isTTY: io.stdoutIsTTY, env: io.env }));
  if (shown.next) io.stderr.write(`${sanitize(shown.next)}\n`);
  if (out.failure) throw new RuntimeError(out.failure);
}

/** Runs the CLI with the given arguments against `io`; returns the exit code. All errors end here (one handler). */
export async function main(args: string[], io: Io): Promise<number> {
  try {
    const parser = buildParser(io, (spec, argv) => runCommand(spec, argv, io));
    // With a callback yargs hands help and version text back instead of printing it to the process's console.
    let shown = "";
    await parser.parseAsync(normaliseArgs(args, COMMANDS), {}, (_err, _argv, output) => {
      shown = output;
    });
    if (shown) await writeOut(io.stdout, `${shown}\n`);
    return 0;
  } catch (err) {
    const msg = messageOf(err).split("\n").map(sanitize).join("\n");
    io.stderr.write(`ccforensics: ${msg}\n`);
    return exitCodeOf(err);
  }
}
