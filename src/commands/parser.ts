import yargs, { type Argv as YArgv } from "yargs";

import { commonFor } from "./options.js";
import type { Argv, CommandSpec } from "./registry.js";
import { UsageError } from "../errors.js";
import type { Io } from "../io.js";
import { unknownMessage } from "./mistakes.js";
import { packageInfo } from "../package-root.js";
import { helpWidth } from "./help-cache.js";

/** Builds the parser from the command specs; exported so tests can inspect help. A new instance per call: no state is shared between runs. */
export function buildParser(
  io: Pick<Io, "columns">,
  run: ((spec: CommandSpec, argv: Argv) => Promise<void>) | undefined,
  args: string[],
  commands: CommandSpec[],
): YArgv {
  let y: YArgv = (yargs() as unknown as YArgv)
    .scriptName("ccforensics")
    .usage(
      "ccforensics <command> [target..] [options]\n\nForensics on Claude Code's own evidence: transcripts, debug logs, MCP message logs, claude -p output.",
    )
    .version(packageInfo().version)
    .alias("v", "version")
    .help()
    .alias("h", "help")
    // yargs would otherwise pick the language from process.env and exit the process after --help.
    .locale("en")
    .exitProcess(false)
    .strict()
    .demandCommand(1, "give a command; see --help")
    .wrap(helpWidth(io.columns))
    .fail((msg, err) => {
      if (err) throw err;
      // yargs spreads some messages (invalid choices) over lines; a usage error is one line.
      throw new UsageError(unknownMessage(msg.replace(/\s*\n\s*/g, " ").trim(), args, commands));
    });
  // Before running a command yargs renders its whole help (cacheHelpMessage) for a later showHelp(), which
  // this CLI never calls: a fifth of a small command's start-up. Internal API; absent, nothing changes.
  const usage = (y as unknown as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: unknown } } })
    .getInternalMethods?.()
    .getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === "function") usage.cacheHelpMessage = () => {};
  for (const spec of commands) y = register(y, spec, run);
  // After the commands, so help lists it last.
  return y.completion("completion", "print a bash/zsh completion script: ccforensics completion >> ~/.bashrc (or ~/.zshrc)");
}

/**
 * With `run`, yargs calls it as the command's handler (tests that take the report model). Without, the
 * command is only parsed and `main` runs it after: yargs renders the whole help of a command whose
 * handler it runs (`cacheHelpMessage`), which was a fifth of a small command's start-up.
 */
function register(y: YArgv, spec: CommandSpec, run?: (spec: CommandSpec, argv: Argv) => Promise<void>): YArgv {
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
    run ? (argv) => run(spec, argv as unknown as Argv) : undefined,
  );
}

/** The words through yargs: the parsed arguments, or the help, version or completion text yargs answered with. */
export async function parseWords(
  io: Pick<Io, "columns">,
  words: string[],
  commands: CommandSpec[],
): Promise<{ argv: Argv; shown: string }> {
  const parser = buildParser(io, undefined, words, commands);
  // With a callback yargs hands help, version and completion text back instead of printing it to the process's console.
  let shown = "";
  const argv = await parser.parseAsync(words, {}, (_err, _argv, output) => {
    shown = output;
  });
  return { argv: argv as unknown as Argv, shown };
}
