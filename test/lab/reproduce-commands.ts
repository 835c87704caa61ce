import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, runCli, type CliResult } from "../helpers.js";
import { writeFakeClaude } from "./fake-claude.js";

/** One `run` of README's "Reproduce the write-ups" and the commands that read its runs dir. */
export interface Reproduction {
  matrix: string;
  out: string;
  run: string[];
  then: string[][];
}

/** The commands of README's "Reproduce the write-ups" block, as written there (comments dropped). */
export function readmeReproductions(): Reproduction[] {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Reproduce the write-ups"));
  const block = /```\n([\s\S]*?)```/.exec(section)![1]!;
  const out: Reproduction[] = [];
  for (const line of block.split("\n")) {
    const words = line
      .replace(/\s+#.*$/, "")
      .trim()
      .split(/\s+/);
    if (words[0] !== "ccforensics") continue;
    const args = words.slice(1);
    if (args[0] === "run") out.push({ matrix: args[1]!, out: args[args.indexOf("--out") + 1]!, run: args, then: [] });
    else {
      const r = out.find((x) => args.includes(x.out));
      if (!r) throw new Error(`README: "${line}" reads no runs dir a run above wrote`);
      r.then.push(args);
    }
  }
  return out;
}

/**
 * Runs one reproduction with the stand-in claude into a temp dir, `--only` the given labels (a full
 * matrix is dozens of runs), then each follow-up command on the runs dir it wrote.
 */
export async function reproduce(
  r: Reproduction,
  only: string[],
): Promise<{ run: CliResult; then: CliResult[]; json: Array<Record<string, any>>; runs: string }> {
  const dir = mkdtempSync(join(tmpdir(), "ccf-repro-"));
  const bin = writeFakeClaude(dir);
  const config = join(dir, "claude-config");
  mkdirSync(config);
  const runs = join(dir, "runs");
  const env = { PATH: `${bin}:${process.env.PATH}`, CLAUDE_CONFIG_DIR: config };
  const swap = (args: string[]) => args.map((a) => (a === r.out ? runs : a));
  const run = await runCli([...swap(r.run), ...only.flatMap((l) => ["--only", l])], { env });
  // What follows reads the runs dir alone: no config dir to fall back on.
  const then: CliResult[] = [];
  const json: Array<Record<string, any>> = [];
  for (const args of r.then) {
    then.push(await runCli(swap(args), { env: { HOME: join(dir, "no-home") } }));
    // The same command as JSON: the figures, whatever shape the markdown's tables take on a blog page.
    const asJson = swap(args).filter((a, i, all) => a !== "--format" && all[i - 1] !== "--format");
    const j = await runCli([...asJson, "--json"], { env: { HOME: join(dir, "no-home") } });
    json.push(JSON.parse(j.stdout) as Record<string, any>);
  }
  return { run, then, json, runs };
}
