// After tsc: writes <dir>/commands/catalog.json, the command metadata the CLI parses with before it
// loads any command's code (src/commands/catalog.ts). Usage: node scripts/catalog.mjs dist
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const dir = resolve(process.argv[2] ?? "dist");
const { COMMANDS } = await import(pathToFileURL(join(dir, "commands", "index.js")).href);
const metas = COMMANDS.map(({ run, ...meta }) => meta);
const text = JSON.stringify(metas);
// Metadata that JSON cannot carry (a function, undefined in an array) would silently change the parser.
const back = JSON.stringify(JSON.parse(text));
if (back !== text || JSON.stringify(metas, (k, v) => (typeof v === "function" ? "FUNCTION" : v)) !== text)
  throw new Error("command metadata holds something JSON cannot carry");
writeFileSync(join(dir, "commands", "catalog.json"), `${text}\n`);
