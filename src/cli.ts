#!/usr/bin/env node
import { packageInfo } from "./package-root.js";

const args = process.argv.slice(2);
// The version needs neither the parser nor a command: answer before loading them (start-up is most of its time).
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v" || args[0] === "version")) {
  process.stdout.write(`${packageInfo().version}\n`);
} else {
  const { main } = await import("./main.js");
  const { stdinReadable } = await import("./sources/guard.js");
  // The one place that reads the process's streams and environment; everything else gets them from here.
  process.exitCode = await main(args, {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    // With no target, stdin is read only when it is a pipe, a socket or a redirected file; a terminal or /dev/null is "no stdin".
    stdinIsTTY: process.stdin.isTTY === true || !stdinReadable(),
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    columns: process.stdout.columns || undefined,
  });
}
