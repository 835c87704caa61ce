import type { LabHandler } from "./serve.js";

/**
 * How a legacy lab server meets Claude Code's `server/discover` probe (FORMATS.md 9.2: any error or
 * a timeout sends a dual-era client to `initialize`). `error`: -32601 Method not found, what seed
 * 000's server did and the default. `hang`: no reply to the probe, everything else answered, so the
 * client must time out. `crash`: the server exits on the probe without a word on stdout, as a
 * server that dies on an unknown first method would.
 */
export const PROBE_MODES = ["error", "hang", "crash"] as const;
export type ProbeMode = (typeof PROBE_MODES)[number];

export const PROBE_METHOD = "server/discover";

export function withProbeMode(handler: LabHandler, mode: ProbeMode): LabHandler {
  if (mode === "error") return handler;
  return {
    request(req) {
      if (req.method !== PROBE_METHOD) return handler.request(req);
      return mode === "hang" ? { silent: true } : { exit: 1, why: `exited on ${PROBE_METHOD} (--probe crash)` };
    },
  };
}
