import type { CommandSpec } from "./registry.js";
import { runRequests } from "./requests.js";

export const requestsCommand: CommandSpec = {
  command: "requests [target]",
  describe: "one row per API request: tokens, delta vs the previous request of the same chain, what was added in between",
  examples: [
    ["ccforensics requests 11111111-2222", "the request table of a session found by id prefix"],
    ["ccforensics requests session.jsonl --format markdown", "the same as a markdown table for a write-up"],
    ["cat session.jsonl | ccforensics requests --json", "piped JSONL, JSON out"],
  ],
  positionals: { target: { describe: "session id or prefix (6+ chars), transcript path, or - for stdin" } },
  run: (argv) => runRequests(argv.target, argv),
};
