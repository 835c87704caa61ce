import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, runCli, sample } from "../helpers.js";

/**
 * The examples in README.md and docs/REFERENCE.md are what the tool prints, not what it once printed.
 *
 * A fenced block whose first line is `$ ccforensics …` is an example:
 * - in a ```console block the lines after the command are its stdout at 100 columns, checked here
 *   (`npm run golden:update` rewrites them);
 * - in any other block the command must run from a fresh clone and exit 0 (its output is described in prose).
 *
 * Paths of the checkout are shown as `~/ccforensics`. Line breaks inside wrapped key/value lines depend on
 * that path's length, so the comparison ignores how whitespace is laid out, and nothing else.
 */
const DOCS = ["README.md", join("docs", "REFERENCE.md")];
const SHOWN_ROOT = "~/ccforensics";

interface Example {
  /** 0-based line of the opening fence. */
  fence: number;
  console: boolean;
  command: string;
  /** Lines of the block after the command, up to the closing fence. */
  output: string[];
  end: number;
}

function examples(lines: string[]): Example[] {
  const out: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end++;
    const body = lines.slice(i + 1, end);
    if (body[0]?.startsWith("$ ccforensics ")) {
      let n = 0;
      let command = body[0].slice(2);
      while (command.endsWith("\\") && n + 1 < body.length) command = command.slice(0, -1).trimEnd() + " " + body[++n]!.trim();
      out.push({ fence: i, console: open[1] === "console", command: command.replace(/\s+#.*$/, ""), output: body.slice(n + 1), end });
    }
    i = end;
  }
  return out;
}

/** Shell words of a simple command line (no quotes are used in the docs' examples), with `*` globs left to the test. */
function args(command: string): string[] {
  const w = command.split(/\s+/).filter(Boolean);
  assert.equal(w[0], "ccforensics", command);
  return w.slice(1).flatMap((a) => (a.includes("*") ? glob(a) : [a]));
}

function glob(pattern: string): string[] {
  // Only `dir/*/*.jsonl`-style patterns occur; resolve them the way a shell would, sorted.
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
  assert.ok(paths.length > 0, `${pattern} matches nothing`);
  return paths;
}

// A wrap can fall inside a long path (`…/-tmp-lab-demo/` + newline + `c0ffee00….jsonl`) in one checkout and not in
// another, so whitespace is dropped altogether, not just collapsed.
const normal = (s: string) => s.replace(/\s+/g, "");

async function run(command: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await runCli(args(command), { env: { COLUMNS: "100", CLAUDE_CONFIG_DIR: sample("claude-home") } });
  return { ...r, stdout: r.stdout.split(ROOT).join(SHOWN_ROOT) };
}

for (const doc of DOCS) {
  test(`${doc}: every example runs, and every console example prints what the file shows`, async (t) => {
    const file = join(ROOT, doc);
    const lines = readFileSync(file, "utf8").split("\n");
    const found = examples(lines);
    assert.ok(found.length > 0, `${doc} has examples`);
    const replaced: Array<[Example, string[]]> = [];
    for (const ex of found) {
      await t.test(ex.command, async () => {
        const r = await run(ex.command);
        assert.equal(r.code, 0, `${ex.command}\n${r.stderr}`);
        assert.ok(r.stdout.length > 0, `${ex.command}: prints a document`);
        if (!ex.console) return;
        const printed = r.stdout.replace(/\n$/, "").split("\n");
        if (process.env.UPDATE_GOLDEN === "1") replaced.push([ex, printed]);
        else
          assert.equal(
            normal(ex.output.join("\n")),
            normal(printed.join("\n")),
            `${doc}:${ex.fence + 1}: the example's output differs from what \`${ex.command}\` prints (npm run golden:update to accept)`,
          );
      });
    }
    if (process.env.UPDATE_GOLDEN === "1" && replaced.length > 0) {
      // Bottom-up, so earlier line numbers stay valid.
      for (const [ex, printed] of replaced.sort((a, b) => b[0].fence - a[0].fence)) {
        const cmdLines = ex.end - ex.fence - 1 - ex.output.length;
        lines.splice(ex.fence + 1 + cmdLines, ex.output.length, ...printed);
      }
      writeFileSync(file, lines.join("\n"));
    }
  });
}

test("README's five commands are console examples, each at most 100 columns wide", () => {
  const lines = readFileSync(join(ROOT, "README.md"), "utf8").split("\n");
  const found = examples(lines).filter((e) => e.console);
  assert.ok(found.length >= 5, `README shows ${found.length} console examples`);
  for (const ex of found) {
    assert.ok(ex.output.length > 0, `${ex.command}: README shows its output`);
    for (const l of ex.output)
      assert.ok([...l].length <= 100 + SHOWN_ROOT.length, `${ex.command}: a line of ${[...l].length} columns: ${l}`);
  }
});
