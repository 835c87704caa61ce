import { COMMON_OPTIONS, commandsTaking, commonNames, type CommonName } from "./options.js";
import type { CommandSpec } from "./registry.js";
import { suggest } from "./suggest.js";

/** `ccforensics help [command]` and `ccforensics version` read as --help and --version, as git and npm users expect. */
export function aliasWords(args: string[]): string[] {
  if (args[0] === "help") return [...args.slice(1), "--help"];
  if (args[0] === "version" && args.length === 1) return ["--version"];
  return args;
}

const nameOf = (c: CommandSpec) => c.command.split(" ")[0]!;

/**
 * Options are registered per command, so yargs would refuse one written before the command
 * (`ccforensics --json requests`); flags before the command word move after it, as users expect.
 * Runs after normaliseArgs, so a flag's value is already joined to it (`--format=json`).
 */
export function commandFirst(words: string[], commands: CommandSpec[]): string[] {
  const names = new Set(commands.map(nameOf));
  const i = words.findIndex((w) => !w.startsWith("-"));
  if (i <= 0 || !names.has(words[i]!) || words.slice(0, i).includes("--")) return words;
  return [words[i]!, ...words.slice(0, i), ...words.slice(i + 1)];
}

/** The command a command line names, if any (flag values are joined to their flags by normaliseArgs). */
export function commandOf(args: string[], commands: CommandSpec[]): CommandSpec | undefined {
  return commands.find((c) => args.includes(nameOf(c)));
}

/**
 * yargs' "Unknown argument(s): …" made useful: a mistyped command, flag or choice gets a did-you-mean,
 * and a common option given to a command it means nothing to says which commands it goes with.
 */
export function unknownMessage(msg: string, args: string[], commands: CommandSpec[]): string {
  const v = /^Invalid values: Argument: ([\w-]+), Given: "([^"]*)", Choices: (.+)$/.exec(msg);
  if (v) {
    const s = suggest(
      v[2]!,
      [...v[3]!.matchAll(/"([^"]*)"/g)].map((c) => c[1]!),
    );
    return `--${v[1]}: "${v[2]}" is not one of ${v[3]}${s ? `; did you mean ${s}?` : ""}`;
  }
  const m = /^Unknown arguments?: (.+)$/.exec(msg);
  if (!m) return msg;
  const cmd = commandOf(args, commands);
  // yargs names a dashed flag twice, as given and camel-cased (debug-file, debugFile): keep the first.
  const given = m[1]!.split(", ");
  const names = given.filter((n) => !/[A-Z]/.test(n) || !given.includes(n.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)));
  const first = args.find((a) => !a.startsWith("-"));
  if (!cmd && first !== undefined && names.includes(first)) {
    const s = suggest(first, commands.map(nameOf));
    return `unknown command "${first}"${s ? `; did you mean ${s}?` : ""} (ccforensics --help lists the commands)`;
  }
  return names.map((n) => oneFlag(n, cmd, commands, args)).join("; ");
}

/**
 * The flag as the user wrote it: yargs names `--no-subagents` by what it negates (`subagents`), and a
 * message about `--subagents` to someone who typed `--no-subagents` sends them looking for the wrong word.
 */
function typedFlag(n: string, args: string[]): string {
  if (n.length === 1) return `-${n}`;
  const written = args.find((a) => [`--${n}`, `--no-${n}`].some((f) => a === f || a.startsWith(`${f}=`)));
  return written?.startsWith(`--no-${n}`) ? `--no-${n}` : `--${n}`;
}

function oneFlag(n: string, cmd: CommandSpec | undefined, commands: CommandSpec[], args: string[]): string {
  const flag = typedFlag(n, args);
  const where = cmd ? nameOf(cmd) : undefined;
  if (where && n in COMMON_OPTIONS && !commonNames(cmd!).includes(n as CommonName)) {
    const takers = commandsTaking(n, commands);
    return `${flag} does not apply to ${where}${takers.length ? `; it goes with ${takers.join(", ")}` : ""}`;
  }
  const known = cmd ? [...Object.keys(cmd.options ?? {}), ...commonNames(cmd), "help", "version"] : ["help", "version"];
  const found = n.length > 1 ? suggest(n, known) : undefined;
  const s = found === n ? undefined : found;
  const no = flag.startsWith("--no-") ? "no-" : "";
  return `Unknown argument: ${no}${n}${s ? ` (did you mean --${no}${s}?)` : ""}`;
}
