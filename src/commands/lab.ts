import { emptyHealth } from "../records/health.js";
import { UsageError } from "../errors.js";
import { RuntimeError } from "../errors.js";
import { MAX_TOOLS, eraTexts, instructionsHandler, type InstructionsConfig } from "../lab/instructions-server.js";
import { codewordsFor, minChars } from "../lab/instructions-text.js";
import { OUTPUT_CONTENTS, outputHandler, type OutputConfig, type OutputContent } from "../lab/output-server.js";
import { MAX_EMIT_CHARS } from "../lab/output-text.js";
import { PROBE_MODES, withProbeMode, type ProbeMode } from "../lab/probe-mode.js";
import { RpcLog } from "../lab/rpc-log.js";
import { serveStdio, type LabHandler } from "../lab/serve.js";
import type { CommandOutput } from "../report/envelope.js";
import { toolVersion } from "../report/envelope.js";
import type { Argv, CommandSpec } from "./registry.js";
import { sanitize } from "../render/sanitize.js";

export const LAB_SERVERS = ["instructions", "output"] as const;
export type LabServerName = (typeof LAB_SERVERS)[number];

export const labCommand: CommandSpec = {
  command: "lab <server>",
  describe:
    "a stdio MCP lab server (instructions | output) that reproduces the seed experiments; serves JSON-RPC on stdin/stdout until stdin ends",
  common: [],
  examples: [
    [
      "ccforensics lab instructions --chars 5000 --lang ja --log rpc-log.jsonl",
      "the instructions write-up's server: 5,000 chars of Japanese instructions, every message both ways logged",
    ],
    [
      "ccforensics lab instructions --dual --init-delay-ms 8000",
      "a dual-era server (server/discover answered, other codewords) whose initialize reply is 8 s late",
    ],
    ["ccforensics lab output --cjk", "the large-output write-up's big server: emit_text / emit_text_annotated, CJK filler"],
    ["ccforensics lab output --content image", "emit_text returns a PNG of exactly `chars` bytes as MCP image content"],
    [
      "ccforensics lab instructions --tools 20 --tool-description-chars 5000",
      "20 tools, each description 5,000 chars with its own codewords (the 2,048 description cap)",
    ],
    ["ccforensics lab instructions --probe hang", "a legacy server that never answers server/discover (the client must time out)"],
  ],
  positionals: {
    server: { describe: "instructions: MCP server instructions with codewords and [at N] markers; output: large tool results" },
  },
  options: {
    chars: { type: "number", describe: "instructions: text length in chars (env LAB_CHARS; default 1000; 0 = empty string)" },
    lang: { type: "string", describe: "instructions: en, ja, or none = no instructions field (env LAB_LANG; default en)" },
    dual: {
      type: "boolean",
      describe: "instructions: also answer server/discover as a 2026-07-28 server, with other codewords (env LAB_DUAL)",
    },
    "init-delay-ms": {
      type: "number",
      describe: "instructions: delay the initialize reply (env LAB_INIT_DELAY_MS; the instructions write-up's late server: 8000)",
    },
    tools: { type: "number", describe: `instructions: how many tools tools/list offers (env LAB_TOOLS; default 3, up to ${MAX_TOOLS})` },
    "tool-description-chars": {
      type: "number",
      describe:
        "instructions: every tool description a lab text of exactly N chars with its own codewords (env LAB_TOOL_DESCRIPTION_CHARS)",
    },
    probe: {
      type: "string",
      describe: `what a legacy server does on server/discover: ${PROBE_MODES.join(" | ")} (env LAB_PROBE; default error = -32601)`,
    },
    content: {
      type: "string",
      describe: `output: ${OUTPUT_CONTENTS.join(" | ")} (env LAB_CONTENT; default words; image: chars = PNG bytes)`,
    },
    cjk: { type: "boolean", describe: "output: same as --content cjk (env LAB_CJK)" },
    "max-result-size-chars": {
      type: "number",
      describe: `output: emit_text_annotated's _meta["anthropic/maxResultSizeChars"] (env LAB_MAX_RESULT_SIZE_CHARS; default 300000)`,
    },
    log: {
      type: "string",
      describe: "append every message, received and sent, to FILE as {t, dir, …JSON-RPC message} lines (env LAB_LOG)",
    },
    name: { type: "string", describe: "serverInfo name (env LAB_NAME; default lab / big)" },
  },
  serves: true,
  run: (argv) => runLab(argv),
};

export type LabSetup =
  | { server: "instructions"; config: InstructionsConfig; log: string | undefined; probe: ProbeMode }
  | { server: "output"; config: OutputConfig; log: string | undefined; probe: ProbeMode };

const ONLY: Record<string, LabServerName> = {
  chars: "instructions",
  lang: "instructions",
  dual: "instructions",
  initDelayMs: "instructions",
  tools: "instructions",
  toolDescriptionChars: "instructions",
  cjk: "output",
  content: "output",
  maxResultSizeChars: "output",
};

/** Options from flags, else from the LAB_* env vars an MCP config can pass, else defaults. Pure. */
export function labSetup(argv: Record<string, unknown>, env: NodeJS.ProcessEnv): LabSetup {
  const server = LAB_SERVERS.find((s) => s === argv.server);
  if (!server) throw new UsageError(`unknown lab server "${String(argv.server ?? "")}": use one of ${LAB_SERVERS.join(", ")}`);
  for (const [k, owner] of Object.entries(ONLY)) {
    if (argv[k] !== undefined && owner !== server)
      throw new UsageError(`--${kebab(k)} is an option of \`lab ${owner}\`, not \`lab ${server}\``);
  }
  const log = str(argv.log, env.LAB_LOG);
  const version = toolVersion();
  const probe = oneOf(str(argv.probe, env.LAB_PROBE) ?? "error", PROBE_MODES, "--probe");
  if (server === "output") {
    const config: OutputConfig = {
      name: str(argv.name, env.LAB_NAME) ?? "big",
      version,
      content: contentOf(argv, env),
      maxResultSizeChars: int(
        argv.maxResultSizeChars,
        env.LAB_MAX_RESULT_SIZE_CHARS,
        "max-result-size-chars",
        300000,
        1,
        MAX_EMIT_CHARS * 10,
      ),
    };
    return { server, config, log, probe };
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
    tools: int(argv.tools, env.LAB_TOOLS, "tools", 3, 0, MAX_TOOLS),
    toolDescriptionChars:
      argv.toolDescriptionChars === undefined && !env.LAB_TOOL_DESCRIPTION_CHARS
        ? null
        : int(argv.toolDescriptionChars, env.LAB_TOOL_DESCRIPTION_CHARS, "tool-description-chars", 0, 1, MAX_EMIT_CHARS),
  };
  if (lang !== "none" && chars > 0) {
    const min = minChars(codewordsFor(chars, lang, "legacy"));
    if (chars < min) throw new UsageError(`--chars ${chars} cannot hold both codewords: use 0 (an empty text) or at least ${min}`);
  }
  if (config.toolDescriptionChars !== null) {
    const min = minChars(codewordsFor(config.toolDescriptionChars, lang === "ja" ? "ja" : "en", "legacy", "lookup_part"));
    if (config.toolDescriptionChars < min)
      throw new UsageError(`--tool-description-chars ${config.toolDescriptionChars} cannot hold both codewords: use at least ${min}`);
  }
  if (config.dual && probe !== "error") throw new UsageError(`--probe ${probe} is for a legacy server; --dual answers server/discover`);
  return { server, config, log, probe };
}

function contentOf(argv: Record<string, unknown>, env: NodeJS.ProcessEnv): OutputContent {
  const content = str(argv.content, env.LAB_CONTENT);
  const cjk = bool(argv.cjk, env.LAB_CJK, "cjk");
  if (content === undefined) return cjk ? "cjk" : "words";
  const c = oneOf(content, OUTPUT_CONTENTS, "--content");
  if (cjk && c !== "cjk") throw new UsageError(`--cjk contradicts --content ${c}`);
  return c;
}

function oneOf<T extends string>(v: string, allowed: readonly T[], flag: string): T {
  if (!(allowed as readonly string[]).includes(v)) throw new UsageError(`${flag} must be one of ${allowed.join(", ")}, got "${v}"`);
  return v as T;
}

/** Serves until stdin ends. Owns stdout: the CLI renders nothing after it (`serves`). */
export async function runLab(argv: Argv): Promise<CommandOutput> {
  const setup = labSetup(argv, argv.env);
  const log = setup.log ? new RpcLog(setup.log) : null;
  // A diagnostic quotes the client's messages (a method, an id): escaped line by line, as main.ts's errors are.
  const diag = (l: string) => argv.stderr.write(`ccforensics lab ${setup.server}: ${l.split("\n").map(sanitize).join("\n")}\n`);
  diag(describeSetup(setup));
  const handler: LabHandler = withProbeMode(
    setup.server === "output" ? outputHandler(setup.config) : instructionsHandler(setup.config),
    setup.probe,
  );
  try {
    const stats = await serveStdio(handler, { log, diag, input: argv.stdin });
    if (stats.exited) throw new RuntimeError(`lab ${setup.server}: ${stats.exited.why}`);
    diag(`stdin ended: ${stats.received} message(s), ${stats.replied} repl${stats.replied === 1 ? "y" : "ies"}, ${stats.invalid} invalid`);
    return {
      command: "lab",
      inputs: [],
      health: emptyHealth(),
      data: { lab: { server: setup.server, ...stats } },
      document: { title: "", tables: [], warnings: [] },
    };
  } finally {
    log?.close();
  }
}

/** One stderr line saying what this server will answer; Claude Code copies server stderr into its debug log. */
export function describeSetup(s: LabSetup): string {
  const log = s.log ? `, log ${s.log}` : "";
  const probe = { error: "-32601", hang: "no reply (--probe hang)", crash: "exits (--probe crash)" }[s.probe];
  if (s.server === "output")
    return `serverInfo ${s.config.name}; ${s.config.content} content; emit_text_annotated maxResultSizeChars ${s.config.maxResultSizeChars}; server/discover ${probe}${log}`;
  const c = s.config;
  const t = eraTexts(c);
  const pair = (x: typeof t.legacy) => (x ? `${x.codewords.begin} … ${x.codewords.end}` : "none");
  const what = c.lang === "none" ? "no instructions field" : `${c.chars} chars ${c.lang}; initialize ${pair(t.legacy)}`;
  const tools =
    c.tools !== 3 || c.toolDescriptionChars !== null
      ? `; ${c.tools} tools${c.toolDescriptionChars !== null ? `, descriptions ${c.toolDescriptionChars} chars` : ""}`
      : "";
  return `serverInfo ${c.name}; ${what}; server/discover ${c.dual ? (c.lang === "none" ? "answered" : pair(t.modern)) : probe}${c.initDelayMs ? `; initialize reply delayed ${c.initDelayMs} ms` : ""}${tools}${log}`;
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
