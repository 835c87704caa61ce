import { UsageError } from "../errors.js";
import { isObject, type JsonObject } from "../records/json.js";

/**
 * A run matrix for `ccforensics run`: one prompt, the `claude` binary and its extra args, how many
 * times to repeat each configuration, and the configurations — which lab servers (each with its own
 * args and env), which env for `claude`. A config's `prompt` and `args` replace the matrix's; `env` is
 * merged over the matrix's. A config names its servers either as a list, `"servers": [{"name",
 * "kind", "args", "env", "entry"}]`, or, for one server, with the older flat keys `server`,
 * `serverArgs`, `name`, `serverEntry`; both forms give the same plan for one server.
 */
export interface Matrix {
  prompt: string | undefined;
  claude: string;
  args: string[];
  env: Record<string, string>;
  repeat: number;
  configs: MatrixConfig[];
}

export type LabServerKind = "instructions" | "output";

/** One lab server of a configuration: an entry under `mcpServers`. */
export interface LabServerSpec {
  /** The key under `mcpServers`, hence Claude's tool names `mcp__<name>__…`; default lab / big. */
  name: string;
  kind: LabServerKind;
  /** `ccforensics lab <kind>` options, e.g. `["--chars", "5000"]`. */
  args: string[];
  /** The server process's environment (the entry's `env`, as an MCP config passes it). */
  env: Record<string, string>;
  /** Extra fields of the MCP config entry, e.g. `{"alwaysLoad": true}` (seed 003). */
  entry: JsonObject;
}

export interface MatrixConfig {
  label: string;
  /** In the order given, which is the order of `mcpServers`; empty = a baseline without any server. */
  servers: LabServerSpec[];
  env: Record<string, string>;
  prompt: string;
  args: string[];
}

const MATRIX_KEYS = ["prompt", "claude", "args", "env", "repeat", "configs"];
const FLAT_KEYS = ["server", "serverArgs", "name", "serverEntry"];
const CONFIG_KEYS = ["label", "servers", ...FLAT_KEYS, "env", "prompt", "args"];
const SERVER_KEYS = ["name", "kind", "args", "env", "entry"];
const KINDS: LabServerKind[] = ["instructions", "output"];
/** A label names folders (`<label>-a`): keep it to characters every file system takes. */
const LABEL = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const NAME = /^[A-Za-z0-9_-]+$/;
const MAX_REPEAT = 26 * 27;
export const MAX_SERVERS = 20;

/** Parses and checks a matrix; every mistake is a UsageError naming the file and the place. Pure. */
export function parseMatrix(text: string, file: string): Matrix {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${file}: not valid JSON (${(e as Error).message})`);
  }
  if (!isObject(v)) throw new UsageError(`${file}: expected a JSON object with "prompt" and "configs"`);
  const at = (where: string, what: string) => new UsageError(`${file}: ${where}: ${what}`);
  unknownKeys(v, MATRIX_KEYS, "top level", at);
  const prompt = optString(v.prompt, "prompt", at);
  const claude = optString(v.claude, "claude", at) ?? "claude";
  if (claude === "") throw at("claude", "must not be empty");
  const args = optStrings(v.args, "args", at) ?? [];
  const env = optEnv(v.env, "env", at) ?? {};
  const repeat = v.repeat === undefined ? 1 : v.repeat;
  if (typeof repeat !== "number" || !Number.isInteger(repeat) || repeat < 1 || repeat > MAX_REPEAT)
    throw at("repeat", `must be a whole number from 1 to ${MAX_REPEAT}, got ${JSON.stringify(repeat)}`);
  if (!Array.isArray(v.configs) || v.configs.length === 0) throw at("configs", "must be a non-empty array of configurations");
  const seen = new Set<string>();
  const configs = v.configs.map((c, i): MatrixConfig => {
    const where = `configs[${i}]`;
    if (!isObject(c)) throw at(where, "must be an object");
    unknownKeys(c, CONFIG_KEYS, where, at);
    const label = c.label;
    if (typeof label !== "string" || !LABEL.test(label))
      throw at(`${where}.label`, `must be a folder-safe name (letters, digits, . _ -), got ${JSON.stringify(label)}`);
    if (seen.has(label)) throw at(`${where}.label`, `"${label}" is used twice`);
    seen.add(label);
    const cPrompt = optString(c.prompt, `${where}.prompt`, at) ?? prompt;
    if (cPrompt === undefined) throw at(where, 'no prompt: give "prompt" in the matrix or in the config');
    return {
      label,
      servers: c.servers !== undefined ? serverList(c, where, at) : flatServer(c, where, at),
      env: { ...env, ...optEnv(c.env, `${where}.env`, at) },
      prompt: cPrompt,
      args: optStrings(c.args, `${where}.args`, at) ?? args,
    };
  });
  return { prompt, claude, args, env, repeat, configs };
}

/** `"servers": [{…}, …]`: any number of lab servers, names unique within the configuration. */
function serverList(c: JsonObject, where: string, at: At): LabServerSpec[] {
  const flat = FLAT_KEYS.filter((k) => k in c);
  if (flat.length) throw at(where, `give either "servers" or ${flat.map((k) => `"${k}"`).join(", ")}, not both`);
  if (!Array.isArray(c.servers)) throw at(`${where}.servers`, "must be an array of servers");
  if (c.servers.length > MAX_SERVERS) throw at(`${where}.servers`, `at most ${MAX_SERVERS} servers, got ${c.servers.length}`);
  const names = new Set<string>();
  return c.servers.map((s, j) => {
    const w = `${where}.servers[${j}]`;
    if (!isObject(s)) throw at(w, 'must be an object {"name", "kind", "args", "env", "entry"}');
    unknownKeys(s, SERVER_KEYS, w, at);
    const kind = s.kind ?? "instructions";
    if (!KINDS.includes(kind as LabServerKind)) throw at(`${w}.kind`, `must be one of ${KINDS.join(", ")}, got ${JSON.stringify(kind)}`);
    const spec = serverSpec(kind as LabServerKind, s.name, s.args, s.entry, w, { name: "name", args: "args", entry: "entry" }, at);
    spec.env = optEnv(s.env, `${w}.env`, at) ?? {};
    if (names.has(spec.name)) throw at(`${w}.name`, `"${spec.name}" is used twice in this configuration`);
    names.add(spec.name);
    return spec;
  });
}

/** The one-server form: `server` (default instructions; "none" = no server), `serverArgs`, `name`, `serverEntry`. */
function flatServer(c: JsonObject, where: string, at: At): LabServerSpec[] {
  const server = c.server ?? "instructions";
  if (server !== "none" && !KINDS.includes(server as LabServerKind))
    throw at(`${where}.server`, `must be one of ${[...KINDS, "none"].join(", ")}, got ${JSON.stringify(server)}`);
  if (server === "none") {
    const extra = ["serverArgs", "name", "serverEntry"].filter((k) => k in c);
    if (extra.length) throw at(`${where}.${extra[0]}`, 'a config with "server": "none" has no server to pass them to');
    return [];
  }
  const spec = serverSpec(
    server as LabServerKind,
    c.name,
    c.serverArgs,
    c.serverEntry,
    where,
    { name: "name", args: "serverArgs", entry: "serverEntry" },
    at,
  );
  // The flat form passed the server's env inside serverEntry; keep it there as the server's env.
  if (isObject(spec.entry.env)) {
    spec.env = optEnv(spec.entry.env, `${where}.serverEntry.env`, at) ?? {};
    const { env: _env, ...rest } = spec.entry;
    spec.entry = rest;
  }
  return [spec];
}

function serverSpec(
  kind: LabServerKind,
  name: unknown,
  args: unknown,
  entry: unknown,
  where: string,
  keys: { name: string; args: string; entry: string },
  at: At,
): LabServerSpec {
  const serverArgs = optStrings(args, `${where}.${keys.args}`, at) ?? [];
  if (serverArgs.some((a) => a === "--log" || a.startsWith("--log=")))
    throw at(`${where}.${keys.args}`, "run sets --log itself (the run folder's message log)");
  const n = optString(name, `${where}.${keys.name}`, at) ?? (kind === "output" ? "big" : "lab");
  if (!NAME.test(n)) throw at(`${where}.${keys.name}`, `must be letters, digits, _ or -, got ${JSON.stringify(n)}`);
  if (entry !== undefined && !isObject(entry)) throw at(`${where}.${keys.entry}`, "must be an object of extra MCP config fields");
  for (const k of ["type", "command", "args"])
    if (isObject(entry) && k in entry) throw at(`${where}.${keys.entry}.${k}`, "is set by run (the lab server and its log)");
  if (keys.entry === "entry" && isObject(entry) && "env" in entry)
    throw at(`${where}.entry.env`, 'give the server\'s env as "env" beside "entry"');
  return { name: n, kind, args: serverArgs, env: {}, entry: (entry as JsonObject | undefined) ?? {} };
}

/** a, b, …, z, aa, ab, …: the suffix of the n-th run (0-based) of a configuration. */
export function repeatLetter(n: number): string {
  let s = "";
  for (let k = n + 1; k > 0; k = Math.floor((k - 1) / 26)) s = String.fromCharCode(97 + ((k - 1) % 26)) + s;
  return s;
}

type At = (where: string, what: string) => UsageError;

function unknownKeys(o: JsonObject, allowed: string[], where: string, at: At): void {
  for (const k of Object.keys(o)) if (!allowed.includes(k)) throw at(where, `unknown key "${k}"; known: ${allowed.join(", ")}`);
}

function optString(v: unknown, where: string, at: At): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw at(where, `must be a string, got ${JSON.stringify(v)}`);
  return v;
}

function optStrings(v: unknown, where: string, at: At): string[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || !v.every((x) => typeof x === "string" || typeof x === "number")) throw at(where, "must be an array of strings");
  return v.map(String);
}

function optEnv(v: unknown, where: string, at: At): Record<string, string> | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v)) throw at(where, "must be an object of NAME: value");
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== "string" && typeof x !== "number" && typeof x !== "boolean")
      throw at(`${where}.${k}`, `must be a string, got ${JSON.stringify(x)}`);
    out[k] = String(x);
  }
  return out;
}
