import { isObject, type JsonObject } from "../records/json.js";
import { codewordsFor, instructionsText, type Codewords, type LabEra, type LabLang } from "./instructions-text.js";
import { INVALID_PARAMS, UNSUPPORTED_VERSION } from "./jsonrpc.js";
import type { LabHandler, LabRequest, Outcome } from "./serve.js";

/**
 * `lab instructions`: seed 000's server. A legacy (≤ 2025-11-25) server whose `initialize` result
 * carries the lab text; with `dual` it also answers `server/discover` as a 2026-07-28 server, with the
 * same length and language but another codeword pair, so an answer tells which response Claude got.
 */
export interface InstructionsConfig {
  name: string;
  version: string;
  /** Text length in JS chars; ignored when `lang` is "none". 0 sends an empty string. */
  chars: number;
  /** "none": the results carry no `instructions` field at all. */
  lang: LabLang | "none";
  dual: boolean;
  /** Delays the `initialize` reply (seed 000's late server: 8000). */
  initDelayMs: number;
  /** How many tools tools/list offers (the first three are the seed's; more are `lab_tool_NN`). */
  tools: number;
  /** Each tool description as a lab text of exactly this many chars, own codewords per tool; null = the short ones. */
  toolDescriptionChars: number | null;
}

export const MODERN_VERSION = "2026-07-28";
export const LEGACY_VERSION = "2025-11-25";
const META_VERSION = "io.modelcontextprotocol/protocolVersion";
const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";

/** The texts each era's response carries (null when the config sends none). */
export interface EraTexts {
  legacy: { codewords: Codewords; text: string } | null;
  modern: { codewords: Codewords; text: string } | null;
}

export function eraTexts(cfg: Pick<InstructionsConfig, "chars" | "lang" | "dual">): EraTexts {
  const one = (era: LabEra) => {
    if (cfg.lang === "none") return null;
    const codewords = codewordsFor(cfg.chars, cfg.lang, era);
    return { codewords, text: cfg.chars === 0 ? "" : instructionsText(cfg.chars, cfg.lang, codewords) };
  };
  return { legacy: one("legacy"), modern: cfg.dual ? one("modern") : null };
}

const partSchema = {
  type: "object",
  properties: { part: { type: "string", description: "part number, e.g. PN-1234" } },
  required: ["part"],
};
export const INSTRUCTIONS_TOOLS: JsonObject[] = [
  { name: "lookup_part", description: "Look up one part number: stock count and bin.", inputSchema: partSchema },
  { name: "list_bins", description: "List the storage bins and what each one holds.", inputSchema: { type: "object", properties: {} } },
  { name: "lab_ping", description: "Check that the lab server answers.", inputSchema: { type: "object", properties: {} } },
];
export const MAX_TOOLS = 1000;

/**
 * The tools/list of a configuration: `tools` tools (a count knob for tool-definition size), each
 * description a lab text of `toolDescriptionChars` chars when set, so the 2,048-char description cap
 * can be read off the BEGIN/END codewords and the last `[at N]` marker that survive. Pure.
 */
export function instructionsTools(cfg: Pick<InstructionsConfig, "tools" | "toolDescriptionChars" | "lang">): JsonObject[] {
  const out: JsonObject[] = [];
  for (let i = 0; i < cfg.tools; i++) {
    const base = INSTRUCTIONS_TOOLS[i] ?? {
      name: `lab_tool_${String(i + 1).padStart(2, "0")}`,
      description: `Extra lab tool ${i + 1}: echoes its name.`,
      inputSchema: { type: "object", properties: {} },
    };
    out.push(
      cfg.toolDescriptionChars === null
        ? base
        : { ...base, description: toolDescription(String(base.name), cfg.toolDescriptionChars, cfg.lang) },
    );
  }
  return out;
}

export function toolDescription(tool: string, chars: number, lang: LabLang | "none"): string {
  const l: LabLang = lang === "ja" ? "ja" : "en";
  return instructionsText(chars, l, codewordsFor(chars, l, "legacy", tool));
}

export function instructionsHandler(cfg: InstructionsConfig): LabHandler {
  const texts = eraTexts(cfg);
  const tools = instructionsTools(cfg);
  const serverInfo = { name: cfg.name, version: cfg.version };
  // seed 000: a dual-era server marks every result `complete` and gives list results a cache policy.
  const ok = (result: JsonObject): Outcome => ({ result: cfg.dual ? { resultType: "complete", ...result } : result });
  return {
    request(req: LabRequest): Outcome | null {
      switch (req.method) {
        case "initialize": {
          const asked = req.params?.protocolVersion;
          const result: JsonObject = {
            protocolVersion: typeof asked === "string" ? asked : LEGACY_VERSION,
            capabilities: { tools: {} },
            serverInfo,
            ...(texts.legacy ? { instructions: texts.legacy.text } : {}),
          };
          const out = ok(result);
          return cfg.initDelayMs > 0 && "result" in out ? { ...out, delayMs: cfg.initDelayMs } : out;
        }
        case "server/discover": {
          if (!cfg.dual) return null;
          const asked = req.meta?.[META_VERSION];
          if (typeof asked === "string" && asked !== MODERN_VERSION) {
            return {
              error: {
                code: UNSUPPORTED_VERSION,
                message: "Unsupported protocol version",
                data: { supported: [MODERN_VERSION], requested: asked },
              },
            };
          }
          return ok({
            supportedVersions: [MODERN_VERSION],
            capabilities: { tools: {} },
            _meta: { [META_SERVER_INFO]: serverInfo },
            ...(texts.modern ? { instructions: texts.modern.text } : {}),
            ttlMs: 0,
            cacheScope: "private",
          });
        }
        case "tools/list":
          return ok(cfg.dual ? { tools, ttlMs: 0, cacheScope: "private" } : { tools });
        case "tools/call":
          return callTool(req.params, ok, tools);
        default:
          return null;
      }
    },
  };
}

function callTool(params: JsonObject | undefined, ok: (r: JsonObject) => Outcome, tools: JsonObject[]): Outcome {
  const name = params?.name;
  const args = isObject(params?.arguments) ? params.arguments : {};
  const text = (s: string) => ok({ content: [{ type: "text", text: s }] });
  if (!tools.some((t) => t.name === name)) return { error: { code: INVALID_PARAMS, message: `Unknown tool: ${String(name)}` } };
  switch (name) {
    case "lookup_part": {
      const part = typeof args.part === "string" ? args.part : "";
      if (!/^PN-\d{4}$/.test(part)) return text(`No part ${JSON.stringify(part)}: part numbers look like PN-1234.`);
      const n = Number(part.slice(3));
      return text(`${part}: ${n % 37} in stock, bin ${"ABCDEF"[n % 6]}${1 + (n % 9)}.`);
    }
    case "list_bins":
      return text("A1–A9 fasteners; B1–B9 springs and washers; C1–C9 bearings; D1–D9 belts; E1–E9 fuses; F1–F9 spare tools.");
    case "lab_ping":
      return text("pong");
    default:
      return text(String(name));
  }
}
