import { isObject, type JsonObject } from "../records/json.js";
import { INVALID_PARAMS } from "./jsonrpc.js";
import { LEGACY_VERSION } from "./instructions-server.js";
import { MAX_EMIT_CHARS, emitText } from "./output-text.js";
import type { LabHandler, LabRequest, Outcome } from "./serve.js";

/**
 * `lab output`: seed 003's "big" server. `emit_text` returns exactly `chars` chars of marked filler;
 * `emit_text_annotated` does the same but declares `_meta["anthropic/maxResultSizeChars"]` in
 * tools/list (FORMATS.md 9.4), which moves Claude Code's size check for that tool.
 */
export interface OutputConfig {
  name: string;
  version: string;
  cjk: boolean;
  maxResultSizeChars: number;
}

export const MAX_RESULT_SIZE_KEY = "anthropic/maxResultSizeChars";

export function outputTools(cfg: Pick<OutputConfig, "cjk" | "maxResultSizeChars">): JsonObject[] {
  const what = cfg.cjk ? "random CJK ideographs, 59 per line" : "numbered lines of 8 random words";
  const inputSchema = {
    type: "object",
    properties: { chars: { type: "integer", minimum: 0, maximum: MAX_EMIT_CHARS, description: "exact length of the result in characters" } },
    required: ["chars"],
  };
  return [
    { name: "emit_text", description: `Returns exactly \`chars\` characters of filler (${what}) between a BEGIN-MARKER line and an END-MARKER line.`, inputSchema },
    {
      name: "emit_text_annotated",
      description: `Same as emit_text; declares a larger result size limit (${cfg.maxResultSizeChars} chars).`,
      inputSchema,
      _meta: { [MAX_RESULT_SIZE_KEY]: cfg.maxResultSizeChars },
    },
  ];
}

export function outputHandler(cfg: OutputConfig): LabHandler {
  const tools = outputTools(cfg);
  return {
    request(req: LabRequest): Outcome | null {
      switch (req.method) {
        case "initialize": {
          const asked = req.params?.protocolVersion;
          return { result: { protocolVersion: typeof asked === "string" ? asked : LEGACY_VERSION, capabilities: { tools: {} }, serverInfo: { name: cfg.name, version: cfg.version } } };
        }
        case "tools/list":
          return { result: { tools } };
        case "tools/call":
          return emit(req.params, cfg.cjk);
        default:
          return null;
      }
    },
  };
}

function emit(params: JsonObject | undefined, cjk: boolean): Outcome {
  const name = params?.name;
  if (name !== "emit_text" && name !== "emit_text_annotated") return { error: { code: INVALID_PARAMS, message: `Unknown tool: ${String(name)}` } };
  const args = isObject(params?.arguments) ? params.arguments : {};
  // Clients may send numbers as strings; anything else is the caller's mistake, said plainly.
  const chars = typeof args.chars === "string" && /^\d+$/.test(args.chars) ? Number(args.chars) : args.chars;
  if (typeof chars !== "number" || !Number.isInteger(chars) || chars < 0 || chars > MAX_EMIT_CHARS) {
    return { error: { code: INVALID_PARAMS, message: `chars must be an integer from 0 to ${MAX_EMIT_CHARS}, got ${JSON.stringify(args.chars) ?? "nothing"}` } };
  }
  return { result: { content: [{ type: "text", text: emitText(chars, cjk) }] } };
}
