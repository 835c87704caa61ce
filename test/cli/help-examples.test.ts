import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COMMANDS } from "../../src/commands/index.js";
import { ROOT, runCli, sample } from "../helpers.js";
import { writeFakeClaude } from "../lab/fake-claude.js";

/** Flags whose value is a file or folder the example writes: sent to a temp dir so the checkout stays clean. */
const WRITES = new Set(["--chart", "-o", "--output", "--out", "--log", "--to"]);

/** Shell words: spaces split, quotes group, as a user's shell would read the example. */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

/** A shell glob over the checkout (`samples/…/projects/*\/*.jsonl`), one `*` segment at a time. */
function expand(pattern: string): string[] {
  if (!pattern.includes("*")) return [pattern];
  let paths = [""];
  for (const seg of pattern.split("/")) {
    const re = new RegExp(`^${seg.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
    paths = paths.flatMap((p) => {
      if (!seg.includes("*")) return [p ? `${p}/${seg}` : seg];
      const dir = join(ROOT, p);
      return existsSync(dir)
        ? readdirSync(dir)
            .filter((f) => re.test(f))
            .sort()
            .map((f) => (p ? `${p}/${f}` : f))
        : [];
    });
  }
  assert.ok(paths.length > 0, `glob ${pattern} matches nothing in the checkout`);
  return paths;
}

const all = COMMANDS.flatMap((spec) => spec.examples.map(([line]) => ({ spec, line })));

test("every command has help examples, each starting with ccforensics (or a pipe into it)", () => {
  for (const spec of COMMANDS) assert.ok(spec.examples.length > 0, spec.command);
  for (const { line } of all) assert.match(line, /^(cat \S+ \| )?ccforensics /, line);
});

for (const { spec, line } of all) {
  test(`help example runs from the repo root: ${line}`, async () => {
    const tmp = mkdtempSync(join(tmpdir(), "ccf-example-"));
    let w = words(line);
    let stdin: string | undefined;
    if (w[0] === "cat") {
      stdin = readFileSync(join(ROOT, w[1]!), "utf8");
      w = w.slice(3);
    }
    assert.equal(w[0], "ccforensics");
    const args: string[] = [];
    const written: string[] = [];
    for (let i = 1; i < w.length; i++) {
      const a = w[i]!;
      if (WRITES.has(a)) {
        const to = join(tmp, w[++i]!);
        args.push(a, to);
        written.push(to);
      } else args.push(...expand(a));
    }
    const serves = spec.serves === true;
    const env: NodeJS.ProcessEnv = {
      // A user with sessions: the examples without --claude-dir find the samples' config dir. `run`'s stand-in
      // claude writes a transcript into its config dir, which must never be the repository's samples.
      CLAUDE_CONFIG_DIR: w[1] === "run" ? join(tmp, "claude-config") : sample("claude-home"),
      // `run` examples call claude; the test's stand-in answers like it.
      PATH: `${writeFakeClaude(tmp)}:${process.env.PATH}`,
    };
    // At a terminal, as a user types it; a lab server and a piped example read their stdin.
    const r = await runCli(args, { env, stdin, tty: { stdin: stdin === undefined && !serves } });
    assert.equal(r.code, 0, `${line}\n${r.stderr}`);
    if (!serves && !args.includes("-o") && !args.includes("--output")) assert.ok(r.stdout.length > 0, `${line}: a document on stdout`);
    for (const f of written.filter((f) => !f.endsWith(".jsonl") || !serves)) {
      assert.ok(existsSync(f) && (statSync(f).isDirectory() || statSync(f).size > 0), `${line}: wrote ${f}`);
    }
  });
}
