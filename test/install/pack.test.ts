import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, spawnCollect } from "../helpers.js";

const run = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) => spawnCollect(cmd, args, { cwd, env });

/** npm as a user runs it: none of the npm_* settings `npm test` puts in the environment (prefix, global, lifecycle). */
function npmEnv(): NodeJS.ProcessEnv {
  const keep = new Set(["npm_config_cache", "npm_config_registry", "npm_config_userconfig"]);
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) || keep.has(k.toLowerCase())) env[k] = v;
  return { ...env, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" };
}

/**
 * A fresh clone's view of the package: sources and the "files" entries but no dist/, so `npm pack`
 * must build it (prepare). The worktree's own dist/ stays untouched while other tests run it.
 */
function stage(dir: string): void {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { files: string[] };
  for (const p of ["package.json", "tsconfig.json", "README.md", "LICENSE", "src", "scripts", ...pkg.files.filter((f) => f !== "dist")]) {
    mkdirSync(join(dir, p, ".."), { recursive: true });
    cpSync(join(ROOT, p), join(dir, p), { recursive: true });
  }
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
}

// Slow by nature (tsc in prepare, then an install of 103 packages): about 25-35 s on a loaded 2-CPU machine.
test("npm pack builds dist; the tarball installs into a fresh prefix and runs --version and demo", { timeout: 240_000 }, async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), "ccf-pack-"));
  try {
    const src = join(tmp, "clone");
    const out = join(tmp, "out");
    mkdirSync(src);
    mkdirSync(out);
    stage(src);
    const env = npmEnv();

    const packed = await run("npm", ["pack", "--json", "--pack-destination", out], src, env);
    assert.equal(packed.code, 0, packed.stderr);
    const info = (JSON.parse(packed.stdout) as Array<{ filename: string; size: number; unpackedSize: number }>)[0]!;
    const tarball = join(out, info.filename);
    const listed = await run("tar", ["tzf", tarball], tmp, env);
    assert.equal(listed.code, 0, listed.stderr);
    const files = listed.stdout
      .trim()
      .split("\n")
      .map((f) => f.replace(/^package\//, ""));
    for (const f of [
      "dist/cli.js",
      "dist/commands/demo.js",
      "LICENSE",
      "samples/demo/rpc-log.jsonl",
      "samples/demo/big-tools-list.json",
      "samples/claude-home/debug/c0ffee00-1111-4222-8333-444444444444.txt",
    ]) {
      assert.ok(files.includes(f), `${f} missing from the tarball`);
    }
    const stray = files.filter(
      (f) => !/^(dist\/|samples\/(demo|claude-home)\/|LICENSE$|README\.md$|docs\/REFERENCE\.md$|package\.json$)/.test(f),
    );
    assert.deepEqual(stray, [], "only dist, the demo evidence and the package docs ship");
    assert.ok(!files.some((f) => f.includes("abcdef12") || f.endsWith(".ts")), "no other sample session, no TypeScript sources");

    const prefix = join(tmp, "prefix");
    const installed = await run("npm", ["install", "--global", "--prefix", prefix, "--prefer-offline", tarball], tmp, env);
    assert.equal(installed.code, 0, installed.stderr);
    const pkgDir = join(prefix, "lib", "node_modules", "ccforensics");
    assert.ok(!existsSync(join(pkgDir, "node_modules", "typescript")), "no dev dependency installed");

    const bin = join(prefix, "bin", "ccforensics");
    const userEnv = { PATH: process.env.PATH, HOME: join(tmp, "home"), TZ: "UTC", NO_COLOR: "1", COLUMNS: "200" };
    mkdirSync(userEnv.HOME);
    const version = await run(bin, ["--version"], tmp, userEnv);
    assert.equal(version.code, 0, version.stderr);
    assert.equal(version.stdout.trim(), JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version);

    // From a directory with no samples/: the demo must find the evidence inside the installed package.
    const demo = await run(bin, ["demo"], tmp, userEnv);
    assert.equal(demo.code, 0, demo.stderr);
    assert.ok(demo.stdout.includes("Session report — c0ffee00-1111-4222-8333-444444444444"), demo.stdout.slice(0, 500));
    assert.ok(demo.stdout.includes(join(pkgDir, "samples", "demo", "rpc-log.jsonl")), "evidence read from the installed package");
    assert.ok(!demo.stdout.includes(ROOT + "/"), "nothing read from the checkout");
    const errLines = demo.stderr.trim().split("\n");
    assert.equal(errLines.length, 1, `one stderr line, no warning:\n${demo.stderr}`);
    assert.match(errLines[0]!, /^next: ccforensics /);

    const md = await run(bin, ["demo", "--format", "markdown"], tmp, userEnv);
    assert.equal(md.code, 0, md.stderr);
    assert.ok(md.stdout.startsWith("## Session report — c0ffee00"), md.stdout.slice(0, 200));
    t.diagnostic(`tarball ${info.size} bytes, unpacked ${info.unpackedSize} bytes, ${files.length} files`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
