import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { Options } from "yargs";
import { commandSpecs } from "../../src/commands/catalog.js";
import { commonFor, normaliseArgs } from "../../src/commands/options.js";
import { aliasWords, commandFirst } from "../../src/commands/mistakes.js";
import { parseWords } from "../../src/commands/parser.js";
import { quickArgv } from "../../src/commands/quick-parse.js";
import type { CommandSpec } from "../../src/commands/registry.js";

const commands = await commandSpecs();
const nameOf = (c: CommandSpec) => c.command.split(" ")[0]!;

type Outcome = { quick: "declined" } | { quick: "parsed"; same: boolean; detail: string };

/**
 * One command line both ways, as main reads it: when the quick parser answers, yargs must accept the
 * line without printing anything and hand over a deep-equal argv.
 */
async function compare(args: string[]): Promise<Outcome | undefined> {
  let words: string[];
  try {
    words = commandFirst(normaliseArgs(aliasWords(args), commands), commands);
  } catch {
    return undefined; // refused before either parser sees it
  }
  const quick = quickArgv(words, commands);
  if (quick === undefined) return { quick: "declined" };
  let full: unknown;
  try {
    const r = await parseWords({ columns: undefined }, words, commands);
    if (r.shown) return { quick: "parsed", same: false, detail: `yargs printed for ${JSON.stringify(args)}` };
    full = r.argv;
  } catch (e) {
    return { quick: "parsed", same: false, detail: `yargs refused ${JSON.stringify(args)}: ${(e as Error).message}` };
  }
  try {
    assert.deepStrictEqual(quick, full);
    return { quick: "parsed", same: true, detail: "" };
  } catch (e) {
    return { quick: "parsed", same: false, detail: `${JSON.stringify(args)}: ${(e as Error).message}` };
  }
}

const VALUES = ["x", "", "a=b", "-7d", "123456", "0", "true", "a b", "--", "ü\u0000"];

/** Flag words for one option: every form a user writes, good and bad. */
function flagWords(name: string, o: Options): string[][] {
  if (o.type === "boolean") return [[`--${name}`], [`--no-${name}`], [`--${name}=true`], [`--${name}`, "true"]];
  const values = o.choices ? [...[o.choices].flat().map(String), "nope", "1"] : VALUES;
  // normaliseArgs joins `--flag value` into `--flag=value`: the spelled-out form once is enough.
  return [...values.map((v) => [`--${name}`, v]), [`--${name}=${values[0]}`]];
}

function linesFor(spec: CommandSpec): string[][] {
  const name = nameOf(spec);
  const defs = Object.entries({ ...commonFor(spec), ...(spec.options ?? {}) });
  const positionals = [[], ["a"], ["a", "b"], [""], ["-"], ["123456"], ["true"], ["a", "b", "c"]];
  const lines: string[][] = positionals.map((p) => [name, ...p]);
  for (const [n, o] of defs)
    flagWords(n, o).forEach((f, i) => {
      lines.push([name, "a", ...f]);
      // Before the command word and between positionals: once per option is enough.
      if (i < 2) lines.push([...f, name, "a"], [name, ...f, "a", "b"]);
    });
  lines.push([name, "a", "-j"], [name, "-j", "a", "--json"], [name, "a", "-o", "f"], [name, "a", "--", "b"], [name, "a", "-x"]);
  lines.push([name, "a", "--claude-dir", "d1", "--claude-dir", "d2"], [name, "a", "--claude-dir", "d1"], [name, "a", "--help"]);
  lines.push([name, "a", "--version"], [name, "a", "--bogus"], [name, "a", "--format", "json", "--no-subagents", "--strict"]);
  // yargs reads a positional `help` as --help, wherever it stands (a counterexample the random test found).
  lines.push([name, "help"], [name, "a", "help"], [name, "help", "a"], [name, "--json", "help"]);
  return lines;
}

test("the quick parser hands every command the argv yargs would, on every form of every flag", async () => {
  let parsed = 0;
  let declined = 0;
  const wrong: string[] = [];
  for (const spec of commands)
    for (const line of linesFor(spec)) {
      const r = await compare(line);
      if (!r) continue;
      if (r.quick === "declined") declined++;
      else if (r.same) parsed++;
      else wrong.push(r.detail);
    }
  assert.deepEqual(wrong, []);
  console.log(`parsed ${parsed}, declined ${declined}`);
  // Both paths are exercised: most of these lines are plain, some are left to yargs.
  assert.ok(parsed > 500 && declined > 100, `parsed ${parsed}, declined ${declined}`);
});

test("the everyday command lines take the quick path", () => {
  const plain = [
    ["requests", "x.jsonl", "--format", "json"],
    ["requests", "--json", "c0ffee00", "--claude-dir", "d"],
    ["sessions", "--claude-dir", "d", "--format", "json"],
    ["sessions", "--project", "widget", "--since", "7d"],
    ["outputs", "a", "b", "--no-subagents", "--redact"],
    ["report", "c0ffee00", "--debug-file", "d.txt", "-j"],
    ["servers", "--by", "tool"],
    ["compare", "runs", "--columns", "label,run"],
  ];
  for (const line of plain) assert.ok(quickArgv(commandFirst(normaliseArgs(line, commands), commands), commands), line.join(" "));
});

test("random command lines: the quick parser either declines or agrees with yargs", async () => {
  const vocab = [
    ...commands.map(nameOf),
    ...commands.flatMap((c) => Object.keys({ ...commonFor(c), ...(c.options ?? {}) }).flatMap((n) => [`--${n}`, `--no-${n}`])),
    ...VALUES,
    "-j",
    "-o",
    "-h",
    "-v",
    "--help",
    "help",
    "json",
    "table",
    "-",
    "completion",
  ];
  await fc.assert(
    fc.asyncProperty(fc.array(fc.constantFrom(...vocab), { maxLength: 7 }), async (args) => {
      const r = await compare(args);
      if (r?.quick === "parsed") assert.ok(r.same, r.detail);
    }),
    { numRuns: 400 },
  );
});
