import { join } from "node:path";
import { UsageError } from "../errors.js";
import { packageInfo } from "../package-root.js";
import type { CommandOutput } from "../report/envelope.js";
import type { CommandSpec } from "./registry.js";
import { runReport, type ReportOptions } from "./report.js";
import { OUTPUT } from "./options.js";

/** The demo session of samples/gen/make-demo.mjs; package.json "files" ships exactly its evidence. */
export const DEMO_SESSION = "c0ffee00-1111-4222-8333-444444444444";

/** The package root, so an installed copy finds its own samples, never the cwd's. */
export const PACKAGE_ROOT = packageInfo().root;

export interface DemoEvidence {
  claudeDir: string;
  rpcLog: string;
  streamJson: string;
  tools: string;
}

export function demoEvidence(root: string = PACKAGE_ROOT): DemoEvidence {
  return {
    claudeDir: join(root, "samples", "claude-home"),
    rpcLog: join(root, "samples", "demo", "rpc-log.jsonl"),
    streamJson: join(root, "samples", "demo", "claude-p.stream.jsonl"),
    tools: join(root, "samples", "demo", "big-tools-list.json"),
  };
}

// The demo brings its own evidence; a user's evidence flag here would be silently overridden, so refuse it.
const OWN_EVIDENCE: Array<[keyof ReportOptions, string]> = [
  ["claudeDir", "--claude-dir"],
  ["debugFile", "--debug-file"],
  ["rpcLog", "--rpc-log"],
  ["streamJson", "--stream-json"],
  ["baseline", "--baseline"],
];

export async function runDemo(opts: ReportOptions, root: string = PACKAGE_ROOT): Promise<CommandOutput> {
  for (const [key, flag] of OWN_EVIDENCE) {
    if (opts[key] !== undefined)
      throw new UsageError(`demo reads the evidence that ships with ccforensics; ${flag} goes with \`ccforensics report\``);
  }
  const e = demoEvidence(root);
  const out = await runReport(DEMO_SESSION, {
    ...opts,
    claudeDir: [e.claudeDir],
    rpcLog: e.rpcLog,
    streamJson: e.streamJson,
    tools: e.tools,
  });
  return {
    ...out,
    // The envelope names the command run (CONTRACT.md: every command); the fields are report's.
    command: "demo",
    next: `next: ccforensics sessions to list your own sessions, then ccforensics report <id>; this demo's requests alone: ccforensics requests ${DEMO_SESSION.slice(0, 8)} --claude-dir ${e.claudeDir}`,
  };
}

export const demoCommand: CommandSpec = {
  command: "demo",
  describe: "report on the demo evidence that ships in the package (a claude -p run with two MCP servers): what npm start runs",
  common: [...OUTPUT, "strict"],
  examples: [
    ["ccforensics demo", "the report on the bundled demo session, as terminal tables"],
    ["ccforensics demo --format markdown -o demo.md", "the same as a write-up appendix"],
  ],
  run: (argv) => runDemo(argv as ReportOptions),
};
