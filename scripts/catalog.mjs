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

// The help of every `--help`/`-h` line at the widths help.json serves, rendered by the CLI's own parser,
// so `--help` loads neither yargs nor string-width (src/commands/help-cache.ts; a test holds them equal).
const { HELP_FILE, HELP_WIDTHS, helpKey, helpLines } = await import(pathToFileURL(join(dir, "commands", "help-cache.js")).href);
const { parseWords } = await import(pathToFileURL(join(dir, "commands", "parser.js")).href);
const keys = {};
const texts = [];
for (const width of HELP_WIDTHS)
  for (const words of helpLines(COMMANDS.map((c) => c.command.split(" ")[0]))) {
    const { shown } = await parseWords({ columns: width }, words, COMMANDS);
    if (!shown) throw new Error(`no help for ${words.join(" ")}`);
    const i = texts.indexOf(shown);
    keys[helpKey(words, width)] = i >= 0 ? i : texts.push(shown) - 1;
  }
writeFileSync(join(dir, "commands", HELP_FILE), `${JSON.stringify({ keys, texts })}\n`);
