import { sample } from "../helpers.js";

const stairs = (tail: string) => `5e1c0a52-0003-4000-8000-${tail}`;

/** Every command on the samples, as terminal tables: what the width tests and the cli-table3 comparison render. */
export const SAMPLE_COMMANDS: string[][] = [
  ["sessions", "--claude-dir", sample("claude-home")],
  ["requests", sample("basic", "11111111-2222-4333-8444-555555555555.jsonl")],
  ["requests", "2a2a2a2a", "--claude-dir", sample("subagents", "claude")],
  ["requests", sample("damaged", "33333333-4444-4555-8666-777777777777.jsonl")],
  [
    "instructions",
    sample("instructions", "late-server", "projects", "-Users-lab-runs-empty", "1a7e0000-0000-4000-8000-000000000002.jsonl"),
    "--debug-file",
    sample("logs", "debug", "late-server.debug.txt"),
  ],
  ["outputs", stairs("a00000066000"), "--claude-dir", sample("outputs", "staircase", "claude")],
  [
    "outputs",
    "--staircase",
    stairs("000000030000"),
    stairs("000000066000"),
    stairs("a00000320000"),
    "--claude-dir",
    sample("outputs", "staircase", "claude"),
  ],
  ["debug", sample("logs", "debug", "legacy-truncated.debug.txt")],
  ["debug", sample("logs", "debug", "late-server.debug.txt")],
  ["rpc", sample("logs", "rpc", "legacy-fallback.lab.jsonl")],
  ["rpc", sample("logs", "rpc", "dual-era-trap.mixed.log")],
  ["compare", sample("runs")],
  ["inventory", sample("damaged", "33333333-4444-4555-8666-777777777777.jsonl")],
  [
    "report",
    stairs("a00000066000"),
    "--claude-dir",
    sample("outputs", "staircase", "claude"),
    "--rpc-log",
    sample("outputs", "staircase", "rpc-tap.jsonl"),
  ],
  ["demo"],
];
