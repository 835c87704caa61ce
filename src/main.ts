import { commandSpecs } from "./commands/catalog.js";
import { normaliseArgs } from "./commands/options.js";
import { cachedHelp, helpWidth } from "./commands/help-cache.js";
import { quickArgv } from "./commands/quick-parse.js";
import type { Argv } from "./commands/registry.js";
import { exitCodeOf, messageOf } from "./errors.js";
import { writeOut, type Io } from "./io.js";
import { aliasWords, commandFirst } from "./commands/mistakes.js";
import { sanitize } from "./render/sanitize.js";

export type { Io } from "./io.js";

/** Runs the CLI with the given arguments against `io`; returns the exit code. All errors end here (one handler). */
export async function main(args: string[], io: Io): Promise<number> {
  const untrace = io.env.CCFORENSICS_FS_TRACE === "1" ? await traceAccess(io) : undefined;
  try {
    const commands = await commandSpecs();
    const words = commandFirst(normaliseArgs(aliasWords(args), commands), commands);
    // Help rendered at build time, and plain command lines parsed here: yargs loads only for the rest.
    const help = cachedHelp(words, helpWidth(io.columns));
    if (help !== undefined) {
      await writeOut(io.stdout, `${help}\n`);
      return 0;
    }
    let argv: Argv | undefined = quickArgv(words, commands);
    if (argv === undefined) {
      const parsed = await (await import("./commands/parser.js")).parseWords(io, words, commands);
      if (parsed.shown) {
        await writeOut(io.stdout, `${parsed.shown}\n`);
        return 0;
      }
      argv = parsed.argv;
    }
    const spec = commands.find((c) => c.command.split(" ")[0] === String(argv._[0]));
    if (spec) await (await import("./commands/run-command.js")).runCommand(spec, argv, io);
    return 0;
  } catch (err) {
    const msg = messageOf(err).split("\n").map(sanitize).join("\n");
    io.stderr.write(`ccforensics: ${msg}\n`);
    return exitCodeOf(err);
  } finally {
    untrace?.();
  }
}

/**
 * `CCFORENSICS_FS_TRACE=1` prints every access the guard makes to stderr, so a test that spawns the CLI can watch
 * too. A path holds evidence file names: it is written as JSON escaped as the JSON output is (`jsonSafe`), so no
 * C0/C1 control, bidi or invisible character reaches the terminal raw. Returns what turns it off again (a test
 * running the CLI in its own process must not keep tracing).
 */
async function traceAccess(io: Io): Promise<() => void> {
  const [{ onAccess }, { jsonSafe }] = await Promise.all([import("./sources/guard.js"), import("./render/emit.js")]);
  onAccess((op, path) => void io.stderr.write(`ccforensics-fs: ${op} ${jsonSafe(JSON.stringify(path))}\n`));
  return () => onAccess(null);
}
