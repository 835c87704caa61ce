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
  }
}
