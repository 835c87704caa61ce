import { isObject, type JsonObject } from "../records/json.js";
import { INVALID_PARAMS } from "./jsonrpc.js";
import { LEGACY_VERSION } from "./instructions-server.js";
import { emitJson } from "./output-json.js";
import { MIN_PNG_BYTES, labImage } from "./output-image.js";
import { MAX_EMIT_CHARS, emitMarkers, emitText, type LineKind } from "./output-text.js";
import type { LabHandler, LabRequest, Outcome } from "./serve.js";

/**
 * `lab output`: seed 003's "big" server. `emit_text` returns exactly `chars` chars of marked filler;
 * `emit_text_annotated` does the same but declares `_meta["anthropic/maxResultSizeChars"]` in
 * tools/list (FORMATS.md 9.4), which moves Claude Code's size check for that tool. `content` picks
 * the filler; with `image` the result is MCP image content (a PNG of exactly `chars` bytes) followed
 * by one short text item that states its size and carries the END marker.
 */
export const OUTPUT_CONTENTS = ["words", "cjk", "base64", "json", "hex", "image", "mixed"] as const;
export type OutputContent = (typeof OUTPUT_CONTENTS)[number];

export interface OutputConfig {
  name: string;
  version: string;
  content: OutputContent;
  maxResultSizeChars: number;
}

export const MAX_RESULT_SIZE_KEY = "anthropic/maxResultSizeChars";

const WHAT: Record<OutputContent, string> = {
  words: "numbered lines of 8 random words",
  cjk: "random CJK ideographs, 59 per line",
  base64: "base64 lines of 76 chars",
  hex: "hex lines of 64 digits",
  mixed: "lines of words, CJK, base64 and hex in turn",
  json: "one line of minified JSON with short keys",
  image: "",
};

export function outputTools(cfg: Pick<OutputConfig, "content" | "maxResultSizeChars">): JsonObject[] {
  const image = cfg.content === "image";
  const inputSchema = {
    type: "object",
    properties: {
      chars: image
        ? { type: "integer", minimum: MIN_PNG_BYTES, maximum: MAX_EMIT_CHARS, description: "exact size of the PNG image in bytes" }
        : { type: "integer", minimum: 0, maximum: MAX_EMIT_CHARS, description: "exact length of the result in characters" },
    },
    required: ["chars"],
  };
  const description = image
    ? "Returns one PNG image of exactly `chars` bytes as MCP image content, then a short text stating its size and an END-MARKER line."
    : cfg.content === "json"
      ? `Returns exactly \`chars\` characters of ${WHAT.json}, whose first member holds a BEGIN-MARKER and whose last holds an END-MARKER.`
      : `Returns exactly \`chars\` characters of filler (${WHAT[cfg.content]}) between a BEGIN-MARKER line and an END-MARKER line.`;
  return [
    { name: "emit_text", description, inputSchema },
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
          return {
            result: {
              protocolVersion: typeof asked === "string" ? asked : LEGACY_VERSION,
              capabilities: { tools: {} },
              serverInfo: { name: cfg.name, version: cfg.version },
            },
          };
        }
        case "tools/list":
          return { result: { tools } };
        case "tools/call":
          return emit(req.params, cfg.content);
        default:
          return null;
      }
    },
  };
}

/** The MCP content array of one call. Pure. */
export function emitContent(chars: number, content: OutputContent): JsonObject[] {
  if (content === "json") return [{ type: "text", text: emitJson(chars) }];
  if (content !== "image") return [{ type: "text", text: emitText(chars, content as LineKind) }];
  const img = labImage(chars);
  const data = img.png.toString("base64");
  const note = `IMAGE image/png ${img.width}x${img.height}, ${img.png.length} bytes (${data.length} base64 chars)\nEND-MARKER: ${emitMarkers(chars, "image").end}\n`;
  return [
    { type: "image", data, mimeType: "image/png" },
    { type: "text", text: note },
  ];
}

function emit(params: JsonObject | undefined, content: OutputContent): Outcome {
  const name = params?.name;
  if (name !== "emit_text" && name !== "emit_text_annotated")
    return { error: { code: INVALID_PARAMS, message: `Unknown tool: ${String(name)}` } };
  const args = isObject(params?.arguments) ? params.arguments : {};
  // Clients may send numbers as strings; anything else is the caller's mistake, said plainly.
  const chars = typeof args.chars === "string" && /^\d+$/.test(args.chars) ? Number(args.chars) : args.chars;
  const min = content === "image" ? MIN_PNG_BYTES : 0;
  if (typeof chars !== "number" || !Number.isInteger(chars) || chars < min || chars > MAX_EMIT_CHARS) {
    const what = content === "image" ? "chars (the image size in bytes)" : "chars";
    return {
      error: {
        code: INVALID_PARAMS,
        message: `${what} must be an integer from ${min} to ${MAX_EMIT_CHARS}, got ${JSON.stringify(args.chars) ?? "nothing"}`,
      },
    };
  }
  return { result: { content: emitContent(chars, content) } };
}
