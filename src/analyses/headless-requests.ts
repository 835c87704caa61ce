import type { HeadlessRecord } from "../records/streamjson.js";
import { toRecord } from "../records/transcript.js";
import type { Analysis } from "./analysis.js";
import { requestsAnalysis, type RequestsResult } from "./requests.js";

/**
 * Requests from a `claude -p` output's own events, for when its transcript is not on this machine. The
 * `assistant` and `user` events carry the transcript's message shape (one content block each, `usage`
 * repeated per block), so they go through the transcript's record builder and the same requests reducer:
 * grouped by message id, max per field. Events of a subagent (`parent_tool_use_id` set) form its own chain.
 */
export const headlessRequestsAnalysis: Analysis<ReturnType<typeof requestsAnalysis.init>, RequestsResult, HeadlessRecord> = {
  init: () => requestsAnalysis.init(),
  step(s, rec) {
    if (rec.kind !== "event" || (rec.type !== "assistant" && rec.type !== "user")) return;
    const parent = rec.raw.parent_tool_use_id;
    const chain = typeof parent === "string" && parent !== "" ? `task ${parent}` : "main";
    requestsAnalysis.step(s, toRecord(rec.raw, rec.pos, chain));
  },
  finish: (s) => requestsAnalysis.finish(s),
};
