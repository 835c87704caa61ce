import { isObject } from "../records/json.js";
import { KNOWN_TYPES, type HeadlessLayout, type HeadlessRecord } from "../records/streamjson.js";
import type { HeadlessInit, HeadlessResult } from "../records/streamjson-messages.js";
import { bump, MAX_NAMES, newCounts, otherNames, type OtherNames } from "../records/counts.js";
import type { Health } from "../records/health.js";
import type { Analysis } from "./analysis.js";

/**
 * How the headless run's output was written: `stream-json` NDJSON, the single result object of `json`,
 * the array of `json --verbose`, a pretty-printed object, or nothing.
 */
export type HeadlessFormat = "stream-json" | "json" | "json-array" | "json-pretty" | "empty";

/** What a headless run (`claude -p`) printed: its init event(s), its result, and counts of the rest. */
export interface HeadlessRun {
  file: string;
  format: HeadlessFormat;
  /** The first `system/init` event; `inits` has every one (one per turn). */
  init: HeadlessInit | null;
  inits: HeadlessInit[];
  /** The last `result` message; `results` has every one. */
  result: HeadlessResult | null;
  results: HeadlessResult[];
  /** `assistant` events: one per content block, so several per API response. */
  assistantMessages: number;
  /** Distinct `message.id`s among them: the API responses. */
  apiResponses: number;
  /** Models of the `assistant` events a subagent wrote (`parent_tool_use_id` set), in order of first use. */
  subagentModels: string[];
  userMessages: number;
  /** `tool_result` blocks in the `user` events (every chain): what the requests read from these events count as added. */
  toolResults: number;
  /**
   * Messages per `type` (`system/<subtype>` for system messages), at most MAX_NAMES names (records/counts.ts), and
   * one known type more if the cap was reached before any (so "holds a claude -p message" still reads off the keys);
   * `typesOther` (present only past the cap) counts the rest.
   */
  types: Record<string, number>;
  typesOther?: OtherNames;
}

/**
 * What a warning says of a `claude -p` output that `headlessEmpty` holds: not a malformed line, no run to read. An
 * empty (or whitespace-only) file printed nothing; a `[]` (json output with no element) printed an empty array. The
 * two tell apart by their lines: whitespace is read a line at a time, each line blank; an array's lines are no
 * blank lines (records/streamjson.ts `streamed`), so a line that is not blank is the `[]`.
 */
export function headlessEmptyText(health: Health): string {
  return health.lines > health.blankLines
    ? "the output is an empty JSON array (claude -p printed no message)"
    : "the output is empty (claude -p printed nothing)";
}

/**
 * Whether the output held nothing but whitespace: no message, no line that failed to be one, and no crash's
 * NUL run (damage: `\0\0[]` is a crash remnant, not a run that printed nothing).
 */
export function headlessEmpty(run: HeadlessRun, health: Health): boolean {
  return run.format === "empty" && health.malformedCount === 0 && health.damagedCount === 0;
}

/** The session id a run names: from its init event, else its result. Use it to find the transcript. */
export function headlessSessionId(run: HeadlessRun): string | null {
  return run.init?.sessionId ?? run.result?.sessionId ?? null;
}

interface State {
  run: HeadlessRun;
  messageIds: Set<string>;
  subagentModels: Set<string>;
  count: number;
  layout: HeadlessLayout | null;
  /** A type Claude Code writes (KNOWN_TYPES) has a key in `types`. */
  knownListed: boolean;
}

/** The reducer over one headless output; `file` names it in the result even when it is empty. */
export function headlessRunAnalysis(file: string): Analysis<State, HeadlessRun, HeadlessRecord> {
  return {
    init: () => ({
      run: {
        file,
        format: "empty",
        init: null,
        inits: [],
        result: null,
        results: [],
        assistantMessages: 0,
        apiResponses: 0,
        subagentModels: [],
        userMessages: 0,
        toolResults: 0,
        types: newCounts(),
      },
      messageIds: new Set(),
      subagentModels: new Set(),
      count: 0,
      layout: null,
      knownListed: false,
    }),
    step(s, rec) {
      s.layout ??= rec.layout;
      if (rec.kind !== "event") return;
      const r = s.run;
      s.count += 1;
      const known = KNOWN_TYPES.has(rec.type);
      bump(r.types, rec.key, 1, known && !s.knownListed ? Infinity : MAX_NAMES);
      if (known) s.knownListed ||= Object.hasOwn(r.types, rec.key);
      if (rec.init) r.inits.push(rec.init);
      else if (rec.result) r.results.push(rec.result);
      else if (rec.type === "assistant") {
        r.assistantMessages += 1;
        const m = rec.raw.message;
        if (isObject(m) && typeof m.id === "string") s.messageIds.add(m.id);
        const parent = rec.raw.parent_tool_use_id;
        // Bounded: a run uses a few models; past the cap a made-up name per event is not kept.
        if (isObject(m) && typeof m.model === "string" && typeof parent === "string" && parent !== "" && s.subagentModels.size < 1000)
          s.subagentModels.add(m.model);
      } else if (rec.type === "user") {
        r.userMessages += 1;
        r.toolResults += toolResultBlocks(rec.raw.message);
      }
    },
    finish(s) {
      const r = s.run;
      const onlyResult = s.count === 1 && r.results.length === 1;
      r.format =
        s.layout === "array"
          ? "json-array"
          : s.layout === "values"
            ? "json-pretty"
            : s.count === 0
              ? "empty"
              : onlyResult
                ? "json"
                : "stream-json";
      r.init = r.inits[0] ?? null;
      r.result = r.results[r.results.length - 1] ?? null;
      r.apiResponses = s.messageIds.size;
      r.subagentModels = [...s.subagentModels];
      const other = otherNames(r.types);
      if (other !== undefined) r.typesOther = other;
      return r;
    },
  };
}

/** An MCP server's status as the init events say it: `status` from the latest init event that lists the server. */
export interface ServerStatus {
  name: string;
  status: string;
  /** Its status in the first init event that lists it (the snapshot before request 1 when that is init 1). */
  firstStatus: string;
  /** 1-based: which init event `status` is from, and how many init events the run has. */
  initEvent: number;
  inits: number;
  /** `mcp__<server>__…` tools in that init event's `tools`. */
  tools: number;
}

/**
 * Each server the init events name, in order of first mention, with the status of the latest init event that lists
 * it (FORMATS.md 8: one init event per turn): a server `pending` in init 1 and `connected` in init 2 is connected.
 */
export function serverStatuses(
  inits: ReadonlyArray<{ tools: readonly string[]; mcpServers: ReadonlyArray<{ name: string; status: string }> }>,
): ServerStatus[] {
  const out = new Map<string, ServerStatus>();
  inits.forEach((init, i) => {
    for (const m of init.mcpServers) {
      const s = out.get(m.name);
      if (s) Object.assign(s, { status: m.status, initEvent: i + 1 });
      else out.set(m.name, { name: m.name, status: m.status, firstStatus: m.status, initEvent: i + 1, inits: inits.length, tools: 0 });
    }
  });
  // Counted once per server, in the init event its status is from: servers × tools, however many init events.
  for (const s of out.values()) {
    const prefix = `mcp__${s.name.replace(/[^a-zA-Z0-9_-]/g, "_")}__`;
    s.tools = inits[s.initEvent - 1]!.tools.filter((t) => t.startsWith(prefix)).length;
  }
  return [...out.values()];
}

/** How many `tool_result` blocks a user event's message holds. */
function toolResultBlocks(m: unknown): number {
  if (!isObject(m) || !Array.isArray(m.content)) return 0;
  let n = 0;
  for (const b of m.content) if (isObject(b) && b.type === "tool_result") n++;
  return n;
}
