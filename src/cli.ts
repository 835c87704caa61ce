#!/usr/bin/env node
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { packageInfo } from "./package-root.js";
import type { Io } from "./io.js";

interface Entry {
  main(args: string[], io: Io): Promise<number>;
  stdinReadable(): boolean;
  stdinStream(): NodeJS.ReadableStream;
}

const args = process.argv.slice(2);
guardOutput(process.stdout);
// The version needs neither the parser nor a command: answer before loading them (start-up is most of its time).
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v" || args[0] === "version")) {
  process.stdout.write(`${packageInfo().version}\n`);
} else if (!(await plainHelp())) {
  const { main, stdinReadable, stdinStream } = await entry();
  const stdout = process.stdout;
  // The one place that reads the process's streams and environment; everything else gets them from here.
  process.exitCode = await main(args, {
    // Made on first use: building process.stdin costs milliseconds, and most runs read files.
    get stdin() {
      return stdinStream();
    },
    stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    // With no target, stdin is read only when it is a pipe, a socket or a redirected file; a terminal (a character
    // device, as /dev/null is) is "no stdin".
    stdinIsTTY: !stdinReadable(),
    stdoutIsTTY: stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    columns: stdout.columns || undefined,
  });
}

/**
 * A reader that goes away before the end (`| head`) ends the run quietly, as it does for grep or ripgrep:
 * it asked for no more. Any other failure to write stdout (a full disk, an I/O error) is said once on
 * stderr and exits 1, never as an unhandled stream error with a stack trace. A stderr that cannot be
 * written to leaves nowhere to say anything.
 */
function guardOutput(stdout: NodeJS.WriteStream): void {
  stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(0);
    process.stderr.write(`ccforensics: cannot write the output to stdout: ${e.message}\n`);
    process.exit(1);
  });
  process.stderr.on("error", () => undefined);
}

/**
 * `--help` or `-h` alone: the top-level help rendered at build time, answered by help-cache.js and io.js
 * alone. main() would answer the same from the same file (a test holds the two equal) after loading its
 * dozen modules and the command catalog. false when the build has no such help: main() then answers.
 */
async function plainHelp(): Promise<boolean> {
  if (args.length !== 1 || (args[0] !== "--help" && args[0] !== "-h")) return false;
  const [{ cachedHelp, helpWidth }, { writeOut }] = await Promise.all([import("./commands/help-cache.js"), import("./io.js")]);
  const text = cachedHelp(args, helpWidth(process.stdout.columns || undefined));
  if (text === undefined) return false;
  await writeOut(process.stdout, `${text}\n`);
  return true;
}

/**
 * The same main() either way. A command line loads it from main.cjs, every module it may run in one file
 * (scripts/bundle.mjs) compiled from its code cache: one load instead of ~80. A help line is answered from
 * the build-time cache by main.js and its dozen small modules, which load sooner than the bundle and its
 * cache (71 against 77 ms CPU). A build without the bundle (tsc alone) loads the modules one by one.
 */
async function entry(): Promise<Entry> {
  const last = args[args.length - 1];
  const help = args.length <= 2 && (last === "--help" || last === "-h");
  const bundle = new URL("./main.cjs", import.meta.url);
  if (!help && existsSync(bundle)) return (await import("./bundle-load.js")).loadBundle(fileURLToPath(bundle)).exports as unknown as Entry;
  const [{ main }, { stdinReadable, stdinStream }] = await Promise.all([import("./main.js"), import("./sources/guard.js")]);
  return { main, stdinReadable, stdinStream };
}
