import { classifyMessage } from "../records/debug-events.js";
import type { EvidenceKind } from "../records/source.js";
import { kindHint, looksLike } from "../records/sources.js";
import type { RpcDir, RpcRecord, RpcShape } from "../records/rpc.js";
import type { Analysis } from "./analysis.js";
import { summarize, type RpcSummary } from "./rpc-summary.js";
import { SentStore, type SentEntry } from "./rpc-texts.js";

export { META_CLIENT, META_VERSION, summarize, type RpcSummary } from "./rpc-summary.js";

export type Era = "modern" | "legacy" | "unknown";

/**
 * How the `server/discover` probe went. `result`/`error`: its answer is in the log. `unanswered`:
 * the log holds responses but none to the probe (timeout → legacy). `inferred-failed` /
 * `inferred-succeeded`: a received-only log, judged by what the client sent next (FORMATS.md 9.3).
 */
export type ProbeOutcome = "result" | "error" | "unanswered" | "inferred-failed" | "inferred-succeeded" | "unknown";

export interface Probe {
  id: string | number | null;
  protocolVersion: string | null;
  clientName: string | null;
  clientVersion: string | null;
  answered: "result" | "error" | "none";
  errorCode: number | null;
  outcome: ProbeOutcome;
  line: number;
  time: string | null;
  /** `instructions` length in the DiscoverResult, when the answer is logged and has them. */
  instructionsChars: number | null;
  /** Line of the logged answer. */
  answerLine: number | null;
}

export interface Initialize {
  protocolVersion: string | null;
  msAfterProbe: number | null;
  clientName: string | null;
  clientVersion: string | null;
  answered: "result" | "error" | "none";
  line: number;
  time: string | null;
  instructionsChars: number | null;
  answerLine: number | null;
}

/** How a connection shook hands: the modern probe alone, the probe then the legacy fallback, or `initialize` with no probe (an older client). */
export type HandshakeStyle = "discover" | "discover-then-initialize" | "initialize";

/** One connection: from a probe (or an `initialize` without one) to the next. Logs of lab servers append every run. */
export interface Handshake {
  index: number;
  /** Claude Desktop's `[server]` of the connection (each server is its own connection); null when the log names none. */
  server: string | null;
  firstMethod: string | null;
  probe: Probe | null;
  initialize: Initialize | null;
  era: Era;
  /** Methods the client sent after the handshake carrying the modern `_meta` version. */
  modernRequests: number;
  messages: number;
  /** null when it is not known (a probe whose outcome the log does not show, no handshake at all). */
  style: HandshakeStyle | null;
  /** The version the connection spoke: `initialize`'s `protocolVersion` after a fallback, else the probe's (or a request's) `_meta` one. */
  protocolVersion: string | null;
  clientName: string | null;
  clientVersion: string | null;
  /**
   * A short connection that only shook hands (its client sent nothing past `server/discover`, `initialize`,
   * `notifications/initialized`, `ping`) while another connection of the same server in the log did work: Claude
   * Code's probe connections, a manual check. Not the session the top-level fields describe.
   */
  probeConnection: boolean;
  /** The handshake in one line, e.g. `server/discover _meta 2026-07-28 → error -32601 → initialize 2025-11-25; client claude-code 2.1.285; era legacy`. */
  description: string;
}

/** A probe connection (Handshake.probeConnection): where it starts and every method it carried, in order. */
export interface ProbeConnection {
  handshake: number;
  line: number;
  methods: string[];
}

/** The distinct known values when connections in one log shook hands differently (RpcResult.mixedHandshakes). */
export interface MixedHandshakes {
  eras: Era[];
  styles: HandshakeStyle[];
  protocolVersions: string[];
  clients: string[];
}

/**
 * One server of a Claude Desktop log (`<ts> [server] …`): its connections, and the session, probe connections, mix
 * and instructions that are its own. Connections, response ids and probe connections are judged within a server.
 */
export interface RpcLogServer {
  name: string;
  messages: number;
  /** Its connections' `Handshake.index`es, in order. */
  handshakes: number[];
  /** The connection its summary describes, chosen as the top-level `handshake` is among the server's own. */
  handshake: number | null;
  firstMethod: string | null;
  era: Era;
  /** Its connections that only shook hands (Handshake.probeConnection). */
  probeConnections: number[];
  /** As RpcResult.mixedHandshakes, within this server only. */
  mixedHandshakes: MixedHandshakes | null;
  /** Lines of the responses carrying instructions in its connections (RpcResult.instructions). */
  instructionLines: number[];
}

/** Lines that held no JSON-RPC message while the log held none at all: the wrong kind of file, most likely. */
export interface RpcUnrecognised {
  /** Noise and malformed lines (blank lines not counted). */
  lines: number;
  /** The input kind its lines look like (records/sources.ts `recogniseKind`), or null. */
  looksLike: EvidenceKind | null;
}

export interface InstructionsCarrier {
  handshake: number;
  /** The method of the request this response answered. */
  method: string | null;
  id: string | number | null;
  line: number;
  chars: number;
  utf8Bytes: number | null;
  /** The server's own name from the same answer, when it gives one. */
  server: string | null;
}

export interface TimelineRow {
  line: number;
  time: string | null;
  offsetMs: number | null;
  dir: RpcDir;
  shape: RpcShape;
  method: string | null;
  id: string | number | null;
  note: string;
}

export interface RpcResult {
  messages: number;
  methods: string[];
  firstMethod: string | null;
  era: Era;
  probe: Pick<Probe, "id" | "protocolVersion" | "clientName" | "clientVersion" | "answered" | "errorCode"> | null;
  initialize: { protocolVersion: string | null; msAfterProbe: number | null } | null;
  /** The connection `firstMethod`, `era`, `probe` and `initialize` describe: the session's own, not a probe connection before it. */
  handshake: number | null;
  /** The Claude Desktop server that connection is of (Handshake.server); null when the log names no server. */
  server: string | null;
  /** Each server of a Claude Desktop log, in the order they first appear; empty when the log names no server. */
  servers: RpcLogServer[];
  /** Short connections that only shook hands (Handshake.probeConnection), reported apart from the session. */
  probeConnections: ProbeConnection[];
  probeConnectionCount: number;
  /**
   * Set when the log's connections shook hands differently (eras, styles, protocol versions or clients): one log, several
   * kinds of handshake. In a log of several servers, of the summary's server only (the others: `servers[].mixedHandshakes`).
   */
  mixedHandshakes: MixedHandshakes | null;
  /** Extra fields (CONTRACT.md welcomes them). */
  probeOutcome: ProbeOutcome | null;
  responsesLogged: boolean;
  handshakes: Handshake[];
  instructions: InstructionsCarrier[];
  /** Era and version from Claude Code's own per-server log, when that is what was read. */
  clientLog: {
    entries: number;
    protocolEra: string | null;
    negotiatedProtocolVersion: string | null;
    connectMs: number | null;
    transport: string | null;
  } | null;
  noise: number;
  /** Set when no line held a JSON-RPC message (nor a Claude Code log entry) yet some lines held something: said in `warnings`. */
  unrecognised: RpcUnrecognised | null;
  sources: Record<string, number>;
  timeline: TimelineRow[];
  warnings: string[];
}

interface Session {
  hs: Handshake;
  msgs: RpcSummary[];
}

interface State {
  msgs: RpcSummary[];
  /** The log's distinct instructions texts, when the command checks them (rpcAnalysisOf `sentTexts`). */
  store: SentStore | null;
  noise: number;
  malformed: number;
  /** The first noise lines' heads (copies), to tell what kind of file it is when it holds no message. */
  heads: string[];
  clientLog: Array<{ text: string; level: string }>;
}

/** Noise lines whose heads are kept to recognise the file's kind. */
const HEADS = 8;

/**
 * Reducer over the records of one message log; `finish` classifies the handshake(s). With `sentTexts` it also keeps
 * each distinct instructions text (up to `capChars` in all) for `sentEntry`: `instructions`, `report` and `compare`
 * check them; `rpc` and `tools` do not, and keep none.
 */
export function rpcAnalysisOf(opts: { sentTexts?: boolean; capChars?: number } = {}): Analysis<State, RpcResult, RpcRecord> {
  return {
    init: (): State => ({
      msgs: [],
      store: opts.sentTexts ? new SentStore(opts.capChars) : null,
      noise: 0,
      malformed: 0,
      heads: [],
      clientLog: [],
    }),
    step(s: State, r: RpcRecord): void {
      if (r.kind === "rpc") s.msgs.push(summarize(r, s.store));
      else if (r.kind === "noise") {
        s.noise += 1;
        // A copy, so a kept head holds no huge line alive.
        if (s.heads.length < HEADS && s.msgs.length === 0) s.heads.push(Buffer.from(r.head, "utf16le").toString("utf16le"));
      } else if (r.kind === "client-log") s.clientLog.push({ text: r.text, level: r.level });
      else if (r.kind === "malformed") {
        s.malformed += 1;
        // A pretty-printed document's lone `{` is malformed here: its excerpt keeps the head in order.
        if (s.heads.length < HEADS && s.msgs.length === 0) s.heads.push(r.excerpt);
      }
    },
    finish(s: State): RpcResult {
      const unread =
        s.msgs.length === 0 && s.clientLog.length === 0 && s.noise + s.malformed > 0
          ? { lines: s.noise + s.malformed, looksLike: looksLike(s.heads, ["rpc-log"]) }
          : null;
      const out = classify(s.msgs, s.noise, s.clientLog, unread);
      if (s.store) STORES.set(out, { dropped: s.store.dropped, capChars: s.store.capChars });
      return out;
    },
  };
}

/** The reducer that keeps no sent text (`rpc`, `tools`). */
export const rpcAnalysis = rpcAnalysisOf();

export function classify(
  msgs: RpcSummary[],
  noise: number,
  clientLog: Array<{ text: string; level: string }> = [],
  unrecognised: RpcUnrecognised | null = null,
): RpcResult {
  const responsesLogged = msgs.some((m) => m.shape === "result" || m.shape === "error");
  const groups = splitSessions(msgs);
  const sessions = groups.flatMap((g) => g.sessions).sort((a, b) => a.hs.index - b.hs.index);
  const instructions: InstructionsCarrier[] = [];
  for (const g of groups) {
    // Whether responses are logged, and so whether an unanswered probe went unanswered, is the server's own (Desktop logs both).
    const answered = g.server === null ? responsesLogged : g.msgs.some((m) => m.shape === "result" || m.shape === "error");
    for (const s of g.sessions) judge(s, answered, instructions);
    g.main = markProbeConnections(g.sessions);
    for (const s of g.sessions) describe(s, answered);
    g.mixed = mixedOf(g.sessions);
  }
  const main = summarySession(sessions);
  const mainGroup = groups.find((g) => main !== undefined && g.sessions.includes(main));
  const mixed = mainGroup?.mixed ?? null;
  const probeConnections = sessions
    .filter((s) => s.hs.probeConnection)
    .map((s) => ({ handshake: s.hs.index, line: s.msgs[0]!.line, methods: s.msgs.filter((m) => m.method !== null).map((m) => m.method!) }));
  const cl = clientLogSummary(clientLog);
  const era: Era = main ? main.hs.era : cl?.protocolEra === "modern" || cl?.protocolEra === "legacy" ? cl.protocolEra : "unknown";
  const sources: Record<string, number> = {};
  for (const m of msgs) sources[m.source] = (sources[m.source] ?? 0) + 1;
  const p = main?.hs.probe ?? null;
  const i = main?.hs.initialize ?? null;
  return {
    messages: msgs.length,
    methods: msgs.filter((m) => m.method !== null).map((m) => m.method!),
    firstMethod: main?.hs.firstMethod ?? msgs.find((m) => m.dir === "c2s" && m.method !== null)?.method ?? null,
    era,
    probe: p && {
      id: p.id,
      protocolVersion: p.protocolVersion,
      clientName: p.clientName,
      clientVersion: p.clientVersion,
      answered: p.answered,
      errorCode: p.errorCode,
    },
    initialize: i && { protocolVersion: i.protocolVersion, msAfterProbe: i.msAfterProbe },
    handshake: main?.hs.index ?? null,
    server: main?.hs.server ?? null,
    servers: serverSummaries(groups, instructions),
    probeConnections,
    probeConnectionCount: probeConnections.length,
    mixedHandshakes: mixed,
    probeOutcome: p?.outcome ?? null,
    responsesLogged,
    handshakes: sessions.map((s) => s.hs),
    instructions,
    clientLog: cl,
    noise,
    unrecognised,
    sources,
    timeline: timeline(msgs),
    warnings: [
      ...(unrecognised ? [unrecognisedText(unrecognised)] : []),
      ...groups.flatMap((g) => connectionWarnings(g)),
      ...groups.flatMap((g) => warnings(g.sessions)),
      ...(!responsesLogged && sessions.some((s) => s.hs.probe !== null)
        ? ["only received messages are logged: whether the probe was answered is inferred from what the client sent next"]
        : []),
    ],
  };
}

/** The warning for a log in which no line held a message (RpcResult.unrecognised). */
export function unrecognisedText(u: RpcUnrecognised): string {
  const like = u.looksLike ? kindHint(u.looksLike) : null;
  return `no JSON-RPC message recognised in ${u.lines.toLocaleString("en-US")} line${u.lines === 1 ? "" : "s"}${like ? `; it looks like ${like}` : ""}`;
}

/** One server's part of the log (the whole log when it names no server): its messages and connections. */
interface Group {
  server: string | null;
  msgs: RpcSummary[];
  sessions: Session[];
  main: Session | undefined;
  mixed: MixedHandshakes | null;
}

/**
 * One summary per named server. The carriers' lines are grouped by handshake once: a Desktop log of 100,000
 * servers filtered every carrier for every server (quadratic, minutes).
 */
function serverSummaries(groups: Group[], carriers: InstructionsCarrier[]): RpcLogServer[] {
  const linesOf = new Map<number, number[]>();
  for (const c of carriers) {
    const l = linesOf.get(c.handshake);
    if (l) l.push(c.line);
    else linesOf.set(c.handshake, [c.line]);
  }
  return groups.filter((g) => g.server !== null).map((g) => serverSummary(g, linesOf));
}

function serverSummary(g: Group, linesOf: ReadonlyMap<number, number[]>): RpcLogServer {
  return {
    name: g.server!,
    messages: g.msgs.length,
    handshakes: g.sessions.map((s) => s.hs.index),
    handshake: g.main?.hs.index ?? null,
    firstMethod: g.main?.hs.firstMethod ?? g.msgs.find((m) => m.dir === "c2s" && m.method !== null)?.method ?? null,
    era: g.main?.hs.era ?? "unknown",
    probeConnections: g.sessions.filter((s) => s.hs.probeConnection).map((s) => s.hs.index),
    mixedHandshakes: g.mixed,
    instructionLines: g.sessions.flatMap((s) => linesOf.get(s.hs.index) ?? []),
  };
}

/** What a client sends to shake hands (and keep the line alive); a connection that sent nothing else did no work. */
const HANDSHAKE_METHODS = new Set(["server/discover", "initialize", "notifications/initialized", "ping", "notifications/cancelled"]);

const shookHands = (s: Session): boolean => s.hs.probe !== null || s.hs.initialize !== null;
const onlyShookHands = (s: Session): boolean =>
  shookHands(s) && s.msgs.every((m) => m.dir !== "c2s" || m.method === null || HANDSHAKE_METHODS.has(m.method));

/** Marks the probe connections among one server's connections (another of them did work) and gives its summary's session. */
function markProbeConnections(sessions: Session[]): Session | undefined {
  if (sessions.some((s) => shookHands(s) && !onlyShookHands(s))) for (const s of sessions) s.hs.probeConnection = onlyShookHands(s);
  return summarySession(sessions);
}

/**
 * The session a summary describes: the first connection that shook hands and then did work (one with the probe
 * first); with none, the first with a probe, as before.
 */
function summarySession(sessions: Session[]): Session | undefined {
  const worked = sessions.filter((s) => shookHands(s) && !onlyShookHands(s));
  return worked.find((s) => s.hs.probe !== null) ?? worked[0] ?? sessions.find((s) => s.hs.probe !== null) ?? sessions[0];
}

/** Style, version, client and the one-line description of a judged connection. */
function describe(s: Session, responsesLogged: boolean): void {
  const hs = s.hs;
  const p = hs.probe;
  const i = hs.initialize;
  hs.style = p && i ? "discover-then-initialize" : i ? "initialize" : p && hs.era === "modern" ? "discover" : null;
  hs.protocolVersion = i
    ? i.protocolVersion
    : (p?.protocolVersion ?? s.msgs.find((m) => m.dir === "c2s" && m.metaVersion !== null)?.metaVersion ?? null);
  hs.clientName = p?.clientName ?? i?.clientName ?? null;
  hs.clientVersion = p?.clientName ? p.clientVersion : i?.clientName ? i.clientVersion : null;
  const steps: string[] = [];
  if (p) {
    const answer =
      p.answered === "result"
        ? "result"
        : p.answered === "error"
          ? `error ${p.errorCode ?? "?"}`
          : p.outcome === "unanswered" || !responsesLogged
            ? `no answer logged (${p.outcome})`
            : p.outcome;
    steps.push(`server/discover${p.protocolVersion ? ` _meta ${p.protocolVersion}` : ""}`, answer);
  }
  if (i) steps.push(`initialize${i.protocolVersion ? ` ${i.protocolVersion}` : ""}`);
  const client = hs.clientName ? `; client ${`${hs.clientName} ${hs.clientVersion ?? ""}`.trim()}` : "";
  hs.description = `${steps.length ? steps.join(" → ") : "no handshake logged"}${client}; era ${hs.era}`;
}

/** The distinct known values across the connections that shook hands; null when they all agree. */
function mixedOf(sessions: Session[]): MixedHandshakes | null {
  const hs = sessions.filter(shookHands).map((s) => s.hs);
  const distinct = <T>(xs: Array<T | null>): T[] => [...new Set(xs.filter((x): x is T => x !== null))];
  const out: MixedHandshakes = {
    eras: distinct(hs.map((h) => (h.era === "unknown" ? null : h.era))),
    styles: distinct(hs.map((h) => h.style)),
    protocolVersions: distinct(hs.map((h) => h.protocolVersion)),
    clients: distinct(hs.map((h) => (h.clientName ? `${h.clientName} ${h.clientVersion ?? ""}`.trim() : null))),
  };
  return Object.values(out).some((v) => v.length > 1) ? out : null;
}

/** Connections listed at most in one warning. */
const MAX_DESCRIBED = 10;

/** One server's (or the whole log's) probe connections and mixed handshakes; a named server's warnings start with its name. */
function connectionWarnings(g: Group): string[] {
  const { sessions, main, mixed } = g;
  const w: string[] = [];
  const who = g.server === null ? "" : `server ${g.server}: `;
  const probes = sessions.filter((s) => s.hs.probeConnection);
  if (probes.length > 0 && main) {
    const listed = probes.slice(0, MAX_DESCRIBED).map(
      (s) =>
        `handshake ${s.hs.index}: ${s.msgs
          .filter((m) => m.method !== null)
          .map((m) => m.method!)
          .join(", ")}`,
    );
    if (probes.length > MAX_DESCRIBED) listed.push(`… and ${probes.length - MAX_DESCRIBED} more`);
    w.push(
      `${who}${probes.length} probe connection${probes.length === 1 ? "" : "s"} that only shook hands (${listed.join("; ")}); ${g.server === null ? "first method, era, probe and initialize describe" : "its summary describes"} handshake ${main.hs.index}, the session's own`,
    );
  }
  if (mixed) {
    const what = [
      mixed.eras.length > 1 ? `eras ${mixed.eras.join(", ")}` : "",
      mixed.styles.length > 1 ? `handshakes ${mixed.styles.join(", ")}` : "",
      mixed.protocolVersions.length > 1 ? `protocol versions ${mixed.protocolVersions.join(", ")}` : "",
      mixed.clients.length > 1 ? `clients ${mixed.clients.join(", ")}` : "",
    ].filter(Boolean);
    const shook = sessions.filter(shookHands);
    const listed = shook.slice(0, MAX_DESCRIBED).map((s) => `handshake ${s.hs.index}: ${s.hs.description}`);
    if (shook.length > MAX_DESCRIBED) listed.push(`… and ${shook.length - MAX_DESCRIBED} more`);
    w.push(
      `${who}mixed handshakes: ${g.server === null ? "this log holds connections" : "its connections"} that shook hands differently (${what.join("; ")}), so one summary does not fit them all — ${listed.join("; ")}${main ? `; ${g.server === null ? "the" : "its"} summary describes handshake ${main.hs.index}` : ""}`,
    );
  }
  return w;
}

/**
 * The log's connections, server by server (Claude Desktop's `[server]`; one group when the log names none): a
 * connection starts at each probe, at an `initialize` after one, and at a client request with none open (a tap
 * started mid-connection). Notifications and responses before a server's first handshake open none: they are
 * counted with the connection they came before (and, if none comes, are one of their own).
 */
function splitSessions(msgs: RpcSummary[]): Group[] {
  const groups = new Map<string | null, Group & { cur: Session | null; pending: RpcSummary[] }>();
  let count = 0;
  const start = (g: Group & { cur: Session | null; pending: RpcSummary[] }): Session => {
    const s: Session = {
      hs: {
        index: ++count,
        server: g.server,
        firstMethod: null,
        probe: null,
        initialize: null,
        era: "unknown",
        modernRequests: 0,
        messages: g.pending.length,
        style: null,
        protocolVersion: null,
        clientName: null,
        clientVersion: null,
        probeConnection: false,
        description: "",
      },
      msgs: g.pending,
    };
    g.pending = [];
    g.sessions.push(s);
    g.cur = s;
    return s;
  };
  for (const m of msgs) {
    let g = groups.get(m.server);
    if (!g) {
      g = { server: m.server, msgs: [], sessions: [], main: undefined, mixed: null, cur: null, pending: [] };
      groups.set(m.server, g);
    }
    g.msgs.push(m);
    const isReq = m.dir === "c2s" && m.shape === "request";
    if (g.cur === null && !isReq) {
      g.pending.push(m);
      continue;
    }
    let s: Session = g.cur ?? start(g);
    if (isReq && m.method === "server/discover" && (s.hs.probe !== null || s.hs.initialize !== null || s.hs.firstMethod !== null))
      s = start(g);
    else if (isReq && m.method === "initialize" && s.hs.initialize !== null) s = start(g);
    s.msgs.push(m);
    s.hs.messages += 1;
    if (m.dir === "c2s" && m.method !== null && s.hs.firstMethod === null) s.hs.firstMethod = m.method;
    if (isReq && m.method === "server/discover" && s.hs.probe === null) s.hs.probe = probeOf(m);
    if (isReq && m.method === "initialize" && s.hs.initialize === null) s.hs.initialize = initializeOf(m, s.hs.probe);
  }
  for (const g of groups.values()) {
    // Messages of a server that never shook hands nor sent a request: one connection, as before.
    if (g.pending.length > 0) {
      const s = start(g);
      s.hs.firstMethod = s.msgs.find((m) => m.dir === "c2s" && m.method !== null)?.method ?? null;
    }
  }
  return [...groups.values()].map(({ server, msgs: ms, sessions, main, mixed }) => ({ server, msgs: ms, sessions, main, mixed }));
}

/** The text each carrier answered with, kept out of the result so `rpc --json` does not print it; carriers of one text share its entry. */
const SENT = new WeakMap<InstructionsCarrier, SentEntry>();
const STORES = new WeakMap<RpcResult, { dropped: number; capChars: number }>();

/** The entry of the instructions text a carrier's answer held (its text null when dropped over the cap); null when texts were not kept. */
export const sentEntry = (c: InstructionsCarrier): SentEntry | null => SENT.get(c) ?? null;

/** The instructions text a carrier's answer held, as the server sent it (instructions `verbatimPrefix`); null when not kept. */
export const sentText = (c: InstructionsCarrier): string | null => SENT.get(c)?.text ?? null;

/** Whether the log's texts were kept, and how many distinct ones were dropped over the cap; null when none were kept. */
export const sentStoreOf = (r: RpcResult): { dropped: number; capChars: number } | null => STORES.get(r) ?? null;

function judge(s: Session, responsesLogged: boolean, carriers: InstructionsCarrier[]): void {
  const requests = new Map<string, RpcSummary>();
  for (const m of s.msgs) {
    if (m.dir === "c2s" && m.shape === "request") requests.set(String(m.id), m);
    if (m.dir === "c2s" && m.method !== null && m.method !== "server/discover" && m.method !== "initialize" && m.metaVersion !== null)
      s.hs.modernRequests += 1;
    if (m.shape !== "result" && m.shape !== "error") continue;
    const req = requests.get(String(m.id));
    const chars = m.instructionsChars;
    if (chars !== null) {
      const c: InstructionsCarrier = {
        handshake: s.hs.index,
        method: req?.method ?? null,
        id: m.id,
        line: m.line,
        chars,
        utf8Bytes: m.instructionsUtf8Bytes,
        server: m.serverName,
      };
      carriers.push(c);
      if (m.instructionsSent !== null) SENT.set(c, m.instructionsSent);
    }
    if (req?.method === "server/discover" && s.hs.probe && String(s.hs.probe.id) === String(m.id)) {
      s.hs.probe.answered = m.shape;
      s.hs.probe.outcome = m.shape;
      s.hs.probe.errorCode = m.errorCode;
      s.hs.probe.instructionsChars = chars;
      s.hs.probe.answerLine = m.line;
    }
    if (req?.method === "initialize" && s.hs.initialize) {
      s.hs.initialize.answered = m.shape;
      s.hs.initialize.instructionsChars = chars;
      s.hs.initialize.answerLine = m.line;
    }
  }
  const p = s.hs.probe;
  if (p && p.answered === "none") {
    p.outcome = responsesLogged
      ? "unanswered"
      : s.hs.initialize
        ? "inferred-failed"
        : s.hs.modernRequests > 0
          ? "inferred-succeeded"
          : "unknown";
  }
  s.hs.era = s.hs.initialize ? "legacy" : s.hs.modernRequests > 0 || p?.answered === "result" ? "modern" : "unknown";
}

function probeOf(m: RpcSummary): Probe {
  return {
    id: m.id,
    protocolVersion: m.metaVersion,
    clientName: m.clientName,
    clientVersion: m.clientVersion,
    answered: "none",
    errorCode: null,
    outcome: "unknown",
    line: m.line,
    time: m.time,
    instructionsChars: null,
    answerLine: null,
  };
}

function initializeOf(m: RpcSummary, probe: Probe | null): Initialize {
  const probeMs = probe?.time ? Date.parse(probe.time) : NaN;
  return {
    protocolVersion: m.paramsVersion,
    msAfterProbe: m.ms !== null && !Number.isNaN(probeMs) ? m.ms - probeMs : null,
    clientName: m.clientName,
    clientVersion: m.clientVersion,
    answered: "none",
    line: m.line,
    time: m.time,
    instructionsChars: null,
    answerLine: null,
  };
}

function clientLogSummary(lines: Array<{ text: string; level: string }>): RpcResult["clientLog"] {
  if (lines.length === 0) return null;
  const out: NonNullable<RpcResult["clientLog"]> = {
    entries: lines.length,
    protocolEra: null,
    negotiatedProtocolVersion: null,
    connectMs: null,
    transport: null,
  };
  for (const l of lines) {
    const { event } = classifyMessage(l.text, l.level === "error" ? "ERROR" : "DEBUG", "");
    if (event.type === "mcp-capabilities") {
      out.protocolEra ??= event.protocolEra;
      out.negotiatedProtocolVersion ??= event.negotiatedProtocolVersion;
    } else if (event.type === "mcp-connected" && out.connectMs === null) {
      out.connectMs = event.ms;
      out.transport = event.transport;
    }
  }
  return out;
}

function timeline(msgs: RpcSummary[]): TimelineRow[] {
  const first = msgs.find((m) => m.ms !== null)?.ms ?? null;
  return msgs.map((m) => ({
    line: m.line,
    time: m.time,
    offsetMs: m.ms !== null && first !== null ? m.ms - first : null,
    dir: m.dir,
    shape: m.shape,
    method: m.method,
    id: m.id,
    note: m.note,
  }));
}

/** One server's (or the whole log's) dual-era findings: an initialize answer is looked for among its own connections. */
function warnings(sessions: Session[]): string[] {
  const w: string[] = [];
  const modern = sessions.filter((s) => s.hs.era === "modern");
  const initWith = sessions.find((s) => (s.hs.initialize?.instructionsChars ?? null) !== null);
  for (const s of modern) {
    const p = s.hs.probe;
    if (!p || p.answered !== "result" || p.instructionsChars !== null) continue;
    const where = initWith
      ? ` — yet the initialize answer at line ${initWith.hs.initialize!.answerLine} carried ${(initWith.hs.initialize!.instructionsChars ?? "?").toLocaleString("en-US")} chars`
      : "";
    w.push(
      `dual-era trap (handshake ${s.hs.index}): the client took the modern path and the server's DiscoverResult has no instructions${where}; initialize is never sent after a successful probe, so instructions that exist only in the initialize answer never reach the model`,
    );
  }
  for (const s of modern) {
    if (s.hs.probe?.outcome !== "inferred-succeeded") continue;
    w.push(
      `handshake ${s.hs.index} took the modern path (no initialize after the probe): the model gets the instructions of the DiscoverResult, not of the initialize answer — a dual-era server must put them in both`,
    );
  }
  return w;
}

/**
 * The answer whose instructions the client took: the DiscoverResult on the modern path, the
 * initialize result on the legacy one (a dual-era server offers both), of the log's last handshake
 * (lab logs append every run). With `server` (one of `log.servers`, a Claude Desktop log's `[server]`), of that
 * server's own last handshake: another server's answer is not its.
 */
export function takenInstructions(log: RpcResult, server?: RpcLogServer): InstructionsCarrier | null {
  const of = server ? new Set(server.handshakes) : null;
  const carriers = of ? log.instructions.filter((c) => of.has(c.handshake)) : log.instructions;
  // A probe connection's answer is not what the session took (unless the log holds nothing else).
  const session = new Set(log.handshakes.filter((h) => !h.probeConnection && (!of || of.has(h.index))).map((h) => h.index));
  const pool = carriers.some((c) => session.has(c.handshake)) ? carriers.filter((c) => session.has(c.handshake)) : carriers;
  const last = Math.max(0, ...pool.map((c) => c.handshake));
  const mine = pool.filter((c) => c.handshake === last);
  // That connection's own era: one log can hold connections of both (mixedHandshakes).
  const own = log.handshakes.find((h) => h.index === last)?.era ?? "unknown";
  const method = (own === "unknown" ? log.era : own) === "modern" ? "server/discover" : "initialize";
  return mine.find((c) => c.method === method) ?? mine[0] ?? null;
}
