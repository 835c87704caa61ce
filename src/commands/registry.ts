import type { Options } from "yargs";
import type { CommandOutput } from "../report/envelope.js";
import type { CommonOptions } from "./common.js";

/** Parsed arguments as yargs hands them to a command: the common options plus the command's own. */
export type Argv = CommonOptions & Record<string, unknown> & { target?: string; targets?: string[]; _: Array<string | number> };

/**
 * One command: the same metadata drives the parser and the help text, so help stays true.
 * `run` returns data; printing is the CLI's job.
 */
export interface CommandSpec {
  /** yargs command string, e.g. "requests [target]". */
  command: string;
  describe: string;
  /** Real examples shown in help and README: [command line, what it does]. */
  examples: Array<[string, string]>;
  /** The command's own options, listed first in its help. */
  options?: Record<string, Options>;
  /**
   * The common options that mean something here (options.ts OUTPUT, LOOKUP, …); any other is refused
   * with exit 2. Left out, the command takes them all; a test asks every command to say.
   */
  // Names from options.ts COMMON_OPTIONS (typed there; importing the type here would make a cycle).
  common?: readonly string[];
  /** Positional names this command accepts. */
  positionals?: Record<string, { describe: string; array?: boolean }>;
  run(argv: Argv): Promise<CommandOutput>;
  /** A long-running stdio server (`lab`): run() owns stdout until stdin ends, and nothing is rendered after it. */
  serves?: boolean;
}
