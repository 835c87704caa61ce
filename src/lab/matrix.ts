import { UsageError } from "../errors.js";
import { isObject, type JsonObject } from "../records/json.js";

/**
 * A run matrix for `ccforensics run`: one prompt, the `claude` binary and its extra args, how many
 * times to repeat each configuration, and the configurations — which lab server (with its args),
 * which env for `claude`. A config's `prompt` and `args` replace the matrix's; `env` is merged over
 * the matrix's.
 */
export interface Matrix {
  prompt: string | undefined;
  claude: string;
  args: string[];
  env: Record<string, string>;
  repeat: number;
  configs: MatrixConfig[];
}

export type LabServerKind = "instructions" | "output" | "none";

export interface MatrixConfig {
  label: string;
  /** "none": an empty `mcpServers` (a baseline without any server). */
  server: LabServerKind;
  serverArgs: string[];
  /** The key under `mcpServers`, hence Claude's tool names `mcp__<name>__…`; default lab / big. */
  name: string;
  /** Extra fields of the server entry in the MCP config, e.g. `{"alwaysLoad": true}` (seed 003). */
  serverEntry: JsonObject;
  env: Record<string, string>;
  prompt: string;
  args: string[];
}

const MATRIX_KEYS = ["prompt", "claude", "args", "env", "repeat", "configs"];
const CONFIG_KEYS = ["label", "server", "serverArgs", "name", "serverEntry", "env", "prompt", "args"];
const SERVERS: LabServerKind[] = ["instructions", "output", "none"];
/** A label names folders (`<label>-a`): keep it to characters every file system takes. */
const LABEL = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const MAX_REPEAT = 26 * 27;

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
  if (typeof repeat !== "number" || !Number.isInteger(repeat) || repeat < 1 || repeat > MAX_REPEAT) throw at("repeat", `must be a whole number from 1 to ${MAX_REPEAT}, got ${JSON.stringify(repeat)}`);
  if (!Array.isArray(v.configs) || v.configs.length === 0) throw at("configs", "must be a non-empty array of configurations");
  const seen = new Set<string>();
  const configs = v.configs.map((c, i): MatrixConfig => {
    const where = `configs[${i}]`;
    if (!isObject(c)) throw at(where, "must be an object");
    unknownKeys(c, CONFIG_KEYS, where, at);
    const label = c.label;
    if (typeof label !== "string" || !LABEL.test(label)) throw at(`${where}.label`, `must be a folder-safe name (letters, digits, . _ -), got ${JSON.stringify(label)}`);
    if (seen.has(label)) throw at(`${where}.label`, `"${label}" is used twice`);
    seen.add(label);
    const server = c.server ?? "instructions";
    if (!SERVERS.includes(server as LabServerKind)) throw at(`${where}.server`, `must be one of ${SERVERS.join(", ")}, got ${JSON.stringify(server)}`);
    const serverArgs = optStrings(c.serverArgs, `${where}.serverArgs`, at) ?? [];
    if (serverArgs.some((a) => a === "--log" || a.startsWith("--log="))) throw at(`${where}.serverArgs`, "run sets --log itself (the run folder's rpc-log.jsonl)");
    if (server === "none" && serverArgs.length) throw at(`${where}.serverArgs`, 'a config with "server": "none" has no server to pass them to');
    const name = optString(c.name, `${where}.name`, at) ?? (server === "output" ? "big" : "lab");
    if (!/^[A-Za-z0-9_-]+$/.test(name)) throw at(`${where}.name`, `must be letters, digits, _ or -, got ${JSON.stringify(name)}`);
    if (c.serverEntry !== undefined && !isObject(c.serverEntry)) throw at(`${where}.serverEntry`, "must be an object of extra MCP config fields");
    for (const k of ["type", "command", "args"]) if (isObject(c.serverEntry) && k in c.serverEntry) throw at(`${where}.serverEntry.${k}`, "is set by run (the lab server and its log)");
    const cPrompt = optString(c.prompt, `${where}.prompt`, at) ?? prompt;
    if (cPrompt === undefined) throw at(where, 'no prompt: give "prompt" in the matrix or in the config');
    return {
      label,
      server: server as LabServerKind,
      serverArgs,
      name,
      serverEntry: (c.serverEntry as JsonObject | undefined) ?? {},
      env: { ...env, ...optEnv(c.env, `${where}.env`, at) },
      prompt: cPrompt,
      args: optStrings(c.args, `${where}.args`, at) ?? args,
    };
  });
  return { prompt, claude, args, env, repeat, configs };
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
    if (typeof x !== "string" && typeof x !== "number" && typeof x !== "boolean") throw at(`${where}.${k}`, `must be a string, got ${JSON.stringify(x)}`);
    out[k] = String(x);
  }
  return out;
}
