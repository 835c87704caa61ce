import { readFileSync } from "node:fs";
import type { CommandSpec } from "./registry.js";

/**
 * The commands for the parser and help without their code: metadata from catalog.json beside this
 * module (scripts/catalog.mjs writes it from COMMANDS after every build; a test holds the two equal),
 * and a `run` that loads the one command's module when it runs. Loading all 90-odd modules up front
 * was most of the start-up of `--help` and of a small `requests`.
 */
const LOADERS: Record<string, () => Promise<CommandSpec>> = {
  sessions: async () => (await import("./sessions.js")).sessionsCommand,
  requests: async () => (await import("./requests-spec.js")).requestsCommand,
  instructions: async () => (await import("./instructions.js")).instructionsCommand,
  outputs: async () => (await import("./outputs.js")).outputsCommand,
  servers: async () => (await import("./servers.js")).serversCommand,
  export: async () => (await import("./export.js")).exportCommand,
  debug: async () => (await import("./debug.js")).debugCommand,
  rpc: async () => (await import("./rpc.js")).rpcCommand,
  report: async () => (await import("./report.js")).reportCommand,
  demo: async () => (await import("./demo.js")).demoCommand,
  compare: async () => (await import("./compare.js")).compareCommand,
  inventory: async () => (await import("./inventory.js")).inventoryCommand,
  tools: async () => (await import("./tools.js")).toolsCommand,
  lab: async () => (await import("./lab.js")).labCommand,
  run: async () => (await import("./run.js")).runCommand,
};

export const loaderNames = (): string[] => Object.keys(LOADERS);

/** A spec's metadata: what catalog.json holds of it. */
export type CommandMeta = Omit<CommandSpec, "run">;

export const CATALOG_FILE = "catalog.json";

/** The commands, in help order; from the full specs (every module loaded) when no catalog was built. */
export async function commandSpecs(): Promise<CommandSpec[]> {
  let metas: CommandMeta[];
  try {
    metas = JSON.parse(readFileSync(new URL(`./${CATALOG_FILE}`, import.meta.url), "utf8")) as CommandMeta[];
  } catch {
    return (await import("./index.js")).COMMANDS;
  }
  return metas.map((meta) => {
    const name = meta.command.split(" ")[0]!;
    return {
      ...meta,
      async run(argv) {
        // A command added without a loader here still runs (every module loads then); the catalog test names it.
        const load = LOADERS[name] ?? (async () => (await import("./index.js")).COMMANDS.find((c) => c.command === meta.command)!);
        const [spec, { guarded }] = await Promise.all([load(), import("./guarded.js")]);
        return LOADERS[name] ? guarded(spec).run(argv) : spec.run(argv);
      },
    };
  });
}
