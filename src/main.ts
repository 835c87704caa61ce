import yargs, { type Argv as YArgv } from "yargs";

import { COMMANDS } from "./commands/index.js";
import { commonFor, normaliseArgs, checkArgv } from "./commands/options.js";
import { checkOutputPath, writeFileDocument } from "./commands/output-file.js";
import type { Argv, CommandSpec } from "./commands/registry.js";
import { resolveZone } from "./commands/tz.js";
import { sessionFilter } from "./commands/since.js";
import { RuntimeError, StrictError, UsageError, exitCodeOf, messageOf } from "./errors.js";
import { writeOut, type Io } from "./io.js";
import { aliasWords, commandFirst, unknownMessage } from "./commands/mistakes.js";
import { documentChunks, writeDocument } from "./render/emit.js";
import { paletteFor } from "./render/palette.js";
import { checkColumns, fitWidth, parseColumns, type TerminalLayout } from "./render/layout.js";
import { sanitize } from "./render/sanitize.js";
import { withZone } from "./render/zone.js";
import { writeFiles } from "./output/files.js";
import { redactOutput } from "./report/redact.js";
import { toolVersion } from "./report/envelope.js";

export type { Io } from "./io.js";

/** Builds the parser from the command specs; exported so tests can inspect help. A new instance per call: no state is shared between runs. */
export function buildParser(
  io: Pick<Io, "columns">,
  run: (spec: CommandSpec, argv: Argv) => Promise<void> = async () => {},
  args: string[] = [],
): YArgv {
  let y: YArgv = (yargs() as unknown as YArgv)
    .scriptName("ccforensics")
    .usage(
      "ccforensics <command> [target..] [options]\n\nForensics on Claude Code's own evidence: transcripts, debug logs, MCP message logs, claude -p output.",
    )
    .version(toolVersion())
    .alias("v", "version")
    .help()
    .alias("h", "help")
    // yargs would otherwise pick the language from process.env and exit the process after --help.
    .locale("en")
    .exitProcess(false)
    .strict()
    .demandCommand(1, "give a command; see --help")
    .wrap(Math.min(120, io.columns || 100))
    .fail((msg, err) => {
      if (err) throw err;
      // yargs spreads some messages (invalid choices) over lines; a usage error is one line.
      throw new UsageError(unknownMessage(msg.replace(/\s*\n\s*/g, " ").trim(), args, COMMANDS));
    });
  for (const spec of COMMANDS) y = register(y, spec, run);
  // After the commands, so help lists it last.
  return y.completion("completion", "print a bash/zsh completion script: ccforensics completion >> ~/.bashrc (or ~/.zshrc)");
}

function register(y: YArgv, spec: CommandSpec, run: (spec: CommandSpec, argv: Argv) => Promise<void>): YArgv {
  return y.command(
    spec.command,
    spec.describe,
    (b) => {
      for (const [name, p] of Object.entries(spec.positionals ?? {}))
        b.positional(name, { type: "string", describe: p.describe, array: p.array });
      const own = Object.entries(spec.options ?? {});
      const common = Object.entries(commonFor(spec));
      for (const [name, o] of [...own, ...common]) b.option(name, o);
      // The command's own options first, then the common ones, then help and version.
      if (own.length)
        b.group(
          own.map(([n]) => n),
          `${spec.command.split(" ")[0]} options:`,
        );
      if (common.length)
        b.group(
          common.map(([n]) => n),
          "Common options:",
        );
      b.group(["help", "version"], "Other:");
      for (const [cmd, what] of spec.examples) b.example(cmd, what);
      return b;
    },
    (argv) => run(spec, argv as unknown as Argv),
  );
}

async function runCommand(
  spec: CommandSpec,
  a: Argv & { json?: boolean; redact?: boolean; output?: string; tz?: string; wide?: boolean; columns?: unknown },
  io: Io,
): Promise<void> {
  checkArgv(a, spec);
  if (a.json) a.format = "json";
  a.format ??= "table";
  // A command with its own --columns (compare) picks them for every format; elsewhere they shape terminal tables only.
  const ownColumns = spec.options?.columns !== undefined;
  const columns = ownColumns ? undefined : parseColumns(a.columns);
  if (a.format !== "table" && (a.wide || columns))
    throw new UsageError(`--${a.wide ? "wide" : "columns"} shapes terminal tables; it does not apply to --format ${a.format}`);
  const zone = resolveZone(a.tz, io.env, (w) => io.stderr.write(`ccforensics: ${sanitize(w)}\n`));
  a.filter = sessionFilter({ ...a, tz: zone });
  Object.assign(a, {
    tz: zone,
    stdin: io.stdin,
    env: io.env,
    cwd: io.cwd,
    stdinIsTTY: io.stdinIsTTY,
    stderr: io.stderr,
    stderrIsTTY: io.stderrIsTTY,
  });
  await withZone(zone, async () => {
    // Checked before the evidence is read: a refused -o should not cost a long scan.
    let file =
      a.output !== undefined
        ? checkOutputPath({ path: a.output, claudeDir: a.claudeDir, env: io.env, cwd: io.cwd, inputPaths: [] })
        : undefined;
    const out = await spec.run(a);
    if (spec.serves) return;
    if (a.strict && out.health.malformedCount > 0) {
      const first = out.health.malformed.slice(0, 10).map((m) => `  ${m.file}:${m.line}: ${m.reason}`);
      throw new StrictError(`--strict: ${out.health.malformedCount} malformed line(s):\n${first.join("\n")}`);
    }
    const shown = a.redact ? redactOutput(out) : out;
    checkColumns(shown.document, columns);
    // The one output step: files (charts) first, so a refused path fails before stdout is used; their
    // contents redacted with the document, their paths and guards as given.
    await writeFiles(
      (out.files ?? []).map((f, i) => ({ ...f, spec: shown.files?.[i]?.spec ?? f.spec })),
      io.cwd,
    );
    const warn = (w: string) => void io.stderr.write(`ccforensics: ${sanitize(w)}\n`);
    for (const w of shown.document.warnings) warn(w);
    if (file !== undefined && a.output !== undefined) {
      // Now the inputs are known, their config dirs are protected too.
      file = checkOutputPath({
        path: a.output,
        claudeDir: a.claudeDir,
        env: io.env,
        cwd: io.cwd,
        inputPaths: out.inputs.map((i) => i.path).filter((p) => p !== "-"),
      });
      // A file is not a terminal: every column, unless COLUMNS or --columns say otherwise.
      const layout: TerminalLayout = { width: fitWidth(io.env, false, undefined, a.wide === true, warn), columns };
      await writeFileDocument(
        file,
        a.output,
        await documentChunks(shown, a.format, paletteFor({ color: a.color }, { isTTY: false, env: io.env }), layout),
      );
    } else {
      const layout: TerminalLayout = { width: fitWidth(io.env, io.stdoutIsTTY, io.columns, a.wide === true, warn), columns };
      await writeDocument(io.stdout, shown, a.format, paletteFor({ color: a.color }, { isTTY: io.stdoutIsTTY, env: io.env }), layout);
    }
    if (shown.next) io.stderr.write(`${sanitize(shown.next)}\n`);
    if (out.failure) throw new RuntimeError(out.failure);
  });
}

/** Runs the CLI with the given arguments against `io`; returns the exit code. All errors end here (one handler). */
export async function main(args: string[], io: Io): Promise<number> {
  try {
    const words = commandFirst(normaliseArgs(aliasWords(args), COMMANDS), COMMANDS);
    const parser = buildParser(io, (spec, argv) => runCommand(spec, argv, io), words);
    // With a callback yargs hands help, version and completion text back instead of printing it to the process's console.
    let shown = "";
    await parser.parseAsync(words, {}, (_err, _argv, output) => {
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
