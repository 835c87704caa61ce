import { emptyHealth } from "../records/health.js";
import { UsageError } from "../errors.js";
import { eraTexts, instructionsHandler, type InstructionsConfig } from "../lab/instructions-server.js";
import { codewordsFor, minChars } from "../lab/instructions-text.js";
import { outputHandler, type OutputConfig } from "../lab/output-server.js";
import { MAX_EMIT_CHARS } from "../lab/output-text.js";
import { RpcLog } from "../lab/rpc-log.js";
import { serveStdio, type LabHandler } from "../lab/serve.js";
import type { CommandOutput } from "../report/envelope.js";
import { toolVersion } from "../report/envelope.js";
import type { Argv, CommandSpec } from "./registry.js";

export const LAB_SERVERS = ["instructions", "output"] as const;
export type LabServerName = (typeof LAB_SERVERS)[number];

export const labCommand: CommandSpec = {
  command: "lab <server>",
  describe: "a stdio MCP lab server (instructions | output) that reproduces the seed experiments; serves JSON-RPC on stdin/stdout until stdin ends",
  examples: [
    ["ccforensics lab instructions --chars 5000 --lang ja --log rpc-log.jsonl", "seed 000's server: 5,000 chars of Japanese instructions, every received message logged"],
    ["ccforensics lab instructions --dual --init-delay-ms 8000", "a dual-era server (server/discover answered, other codewords) whose initialize reply is 8 s late"],
    ["ccforensics lab output --cjk", "seed 003's big server: emit_text / emit_text_annotated, CJK filler"],
  ],
  positionals: { server: { describe: "instructions: MCP server instructions with codewords and [at N] markers; output: large tool results" } },
  options: {
    chars: { type: "number", describe: "instructions: text length in chars (env LAB_CHARS; default 1000; 0 = empty string)" },
    lang: { type: "string", describe: "instructions: en, ja, or none = no instructions field (env LAB_LANG; default en)" },
    dual: { type: "boolean", describe: "instructions: also answer server/discover as a 2026-07-28 server, with other codewords (env LAB_DUAL)" },
    "init-delay-ms": { type: "number", describe: "instructions: delay the initialize reply (env LAB_INIT_DELAY_MS; seed 000's late server: 8000)" },
    cjk: { type: "boolean", describe: "output: random CJK ideographs instead of words (env LAB_CJK)" },
    "max-result-size-chars": { type: "number", describe: `output: emit_text_annotated's _meta["anthropic/maxResultSizeChars"] (env LAB_MAX_RESULT_SIZE_CHARS; default 300000)` },
    log: { type: "string", describe: "append every received message to FILE as {t, method, id, _meta} lines (env LAB_LOG)" },
    name: { type: "string", describe: "serverInfo name (env LAB_NAME; default lab / big)" },
  },
  serves: true,
  run: (argv) => runLab(argv),
};

export type LabSetup =
  | { server: "instructions"; config: InstructionsConfig; log: string | undefined }
  | { server: "output"; config: OutputConfig; log: string | undefined };

const ONLY: Record<string, LabServerName> = { chars: "instructions", lang: "instructions", dual: "instructions", initDelayMs: "instructions", cjk: "output", maxResultSizeChars: "output" };

/** Options from flags, else from the LAB_* env vars an MCP config can pass, else defaults. Pure. */
export function labSetup(argv: Record<string, unknown>, env: NodeJS.ProcessEnv): LabSetup {
  const server = LAB_SERVERS.find((s) => s === argv.server);
  if (!server) throw new UsageError(`unknown lab server "${String(argv.server ?? "")}": use one of ${LAB_SERVERS.join(", ")}`);
  for (const [k, owner] of Object.entries(ONLY)) {
    if (argv[k] !== undefined && owner !== server) throw new UsageError(`--${kebab(k)} is an option of \`lab ${owner}\`, not \`lab ${server}\``);
  }
  const log = str(argv.log, env.LAB_LOG);
  const version = toolVersion();
  if (server === "output") {
    const config: OutputConfig = {
      name: str(argv.name, env.LAB_NAME) ?? "big",
      version,
      cjk: bool(argv.cjk, env.LAB_CJK, "cjk"),
      maxResultSizeChars: int(argv.maxResultSizeChars, env.LAB_MAX_RESULT_SIZE_CHARS, "max-result-size-chars", 300000, 1, MAX_EMIT_CHARS * 10),
    };
    return { server, config, log };
  }
  const lang = str(argv.lang, env.LAB_LANG) ?? "en";
  if (lang !== "en" && lang !== "ja" && lang !== "none") throw new UsageError(`--lang must be en, ja or none, got "${lang}"`);
  const chars = int(argv.chars, env.LAB_CHARS, "chars", 1000, 0, MAX_EMIT_CHARS);
  const config: InstructionsConfig = {
    name: str(argv.name, env.LAB_NAME) ?? "lab",
    version,
    chars,
    lang,
    dual: bool(argv.dual, env.LAB_DUAL, "dual"),
    initDelayMs: int(argv.initDelayMs, env.LAB_INIT_DELAY_MS, "init-delay-ms", 0, 0, 3_600_000),
  };
  if (lang !== "none" && chars > 0) {
    const min = minChars(codewordsFor(chars, lang, "legacy"));
    if (chars < min) throw new UsageError(`--chars ${chars} cannot hold both codewords: use 0 (an empty text) or at least ${min}`);
  }
  return { server, config, log };
}

/** Serves until stdin ends. Owns stdout: the CLI renders nothing after it (`serves`). */
export async function runLab(argv: Argv): Promise<CommandOutput> {
  const setup = labSetup(argv, argv.env);
  const log = setup.log ? new RpcLog(setup.log) : null;
  const diag = (l: string) => argv.stderr.write(`ccforensics lab ${setup.server}: ${l}\n`);
  diag(describeSetup(setup));
  const handler: LabHandler = setup.server === "output" ? outputHandler(setup.config) : instructionsHandler(setup.config);
  try {
    const stats = await serveStdio(handler, { log, diag, input: argv.stdin });
    diag(`stdin ended: ${stats.received} message(s), ${stats.replied} repl${stats.replied === 1 ? "y" : "ies"}, ${stats.invalid} invalid`);
    return { command: "lab", inputs: [], health: emptyHealth(), data: { lab: { server: setup.server, ...stats } }, document: { title: "", tables: [], warnings: [] } };
  } finally {
    log?.close();
  }
}

/** One stderr line saying what this server will answer; Claude Code copies server stderr into its debug log. */
export function describeSetup(s: LabSetup): string {
  const log = s.log ? `, log ${s.log}` : "";
  if (s.server === "output") return `serverInfo ${s.config.name}; ${s.config.cjk ? "CJK" : "word"} filler; emit_text_annotated maxResultSizeChars ${s.config.maxResultSizeChars}${log}`;
  const c = s.config;
  const t = eraTexts(c);
  const pair = (x: typeof t.legacy) => (x ? `${x.codewords.begin} … ${x.codewords.end}` : "none");
  const what = c.lang === "none" ? "no instructions field" : `${c.chars} chars ${c.lang}; initialize ${pair(t.legacy)}`;
  return `serverInfo ${c.name}; ${what}; server/discover ${c.dual ? (c.lang === "none" ? "answered" : pair(t.modern)) : "-32601"}${c.initDelayMs ? `; initialize reply delayed ${c.initDelayMs} ms` : ""}${log}`;
}

function kebab(k: string): string {
  return k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function str(flag: unknown, env: string | undefined): string | undefined {
  if (typeof flag === "string") return flag;
  return env !== undefined && env !== "" ? env : undefined;
}

function bool(flag: unknown, env: string | undefined, name: string): boolean {
  if (typeof flag === "boolean") return flag;
  if (env === undefined || env === "") return false;
  const v = env.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(v)) return true;
  if (["0", "false", "no", "off"].includes(v)) return false;
  throw new UsageError(`LAB_${name.toUpperCase()} must be 1 or 0 (true/false), got "${env}"`);
}

function int(flag: unknown, env: string | undefined, name: string, dflt: number, min: number, max: number): number {
  const fromEnv = flag === undefined && env !== undefined && env.trim() !== "";
  const v = flag !== undefined ? flag : fromEnv ? (/^\s*\d+\s*$/.test(env!) ? Number(env) : NaN) : dflt;
  const where = fromEnv ? `LAB_${name.toUpperCase().replace(/-/g, "_")}` : `--${name}`;
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
    throw new UsageError(`${where} must be a whole number from ${min} to ${max}, got ${JSON.stringify(fromEnv ? env : flag)}`);
  }
  return v;
}
