#!/usr/bin/env node
import { hideBin } from "yargs/helpers";
import { main, type Io } from "./main.js";
import { stdinReadable } from "./sources/guard.js";

// The one place that reads the process's streams and environment; everything else gets them from here.
const io: Io = {
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
};
process.exitCode = await main(hideBin(process.argv), io);
