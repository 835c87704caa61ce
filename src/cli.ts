#!/usr/bin/env node
import { hideBin } from "yargs/helpers";
import { main, type Io } from "./main.js";

// The one place that reads the process's streams and environment; everything else gets them from here.
const io: Io = {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  stdinIsTTY: process.stdin.isTTY === true,
  stdoutIsTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
  columns: process.stdout.columns || undefined,
};
process.exitCode = await main(hideBin(process.argv), io);
