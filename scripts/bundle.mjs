// After tsc and catalog.mjs: bundles everything a command line runs into <dir>/main.cjs, which cli.js loads
// for every line but --version and help (src/cli.ts). Usage: node scripts/bundle.mjs dist
//
// Why a bundle: Node 20 loads ES modules one by one (resolve, async read, compile, link), ~0.4 ms each, and a
// one-line `requests` loaded ~80 of them. One CommonJS file is one read and one compile; the modules inside
// still start only when first imported (esbuild wraps each one), and node: built-ins load through require,
// without the ES facade that copies every export. Measured on a one-line `requests`: 105 → 87 ms CPU.
import { build } from "esbuild";
import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";

const dir = resolve(process.argv[2] ?? "dist");
const out = resolve(dir, "main.cjs");

/**
 * Packages left to Node: vega and vega-lite are imported only when a chart is drawn (and are most of the
 * install); yargs reads its locale files beside its own code; hyparquet-writer is only imported by name.
 * A CommonJS bundle requires these ES modules (require(esm), in every Node the engines field allows):
 * named imports and yargs' default (it exports 'module.exports') come through as they are. Any other
 * default import of an ES package through require would come out as its namespace, so the rest is bundled.
 */
const EXTERNAL = ["vega", "vega-lite", "yargs", "hyparquet-writer"];

/**
 * In one file import.meta.url would be the bundle's for every module; each module's own URL is what it
 * finds catalog.json, help.json, hash-worker.js and ../cli.js by. CommonJS has no import.meta at all.
 */
const ownUrls = {
  name: "own-import-meta-url",
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(dir + sep)) return undefined;
      const rel = relative(dir, args.path).split(sep);
      const url = `require("node:url").pathToFileURL(require("node:path").join(__dirname, ${rel.map((p) => JSON.stringify(p)).join(", ")})).href`;
      // A script compiled from a code cache has no import() of its own in Node 20: bundle-load.ts hands one in.
      const text = (await readFile(args.path, "utf8"))
        .replaceAll("import.meta.url", url)
        .replace(/\bimport\(("[^".][^"]*")\)/g, (m, spec) => (EXTERNAL.includes(JSON.parse(spec)) ? `__import(${spec})` : m));
      if (text.includes("import.meta") || /\bimport\("[^".]/.test(text))
        throw new Error(
          `${args.path}: import.meta beyond import.meta.url, or import() of a package not left outside, has no meaning in the bundle`,
        );
      return { contents: text, loader: "js" };
    });
  },
};

const result = await build({
  stdin: {
    contents: `export { main } from "./main.js";\nexport { stdinReadable, stdinStream } from "./sources/guard.js";\n`,
    resolveDir: dir,
    sourcefile: "bundle-entry.js",
  },
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  outfile: out,
  external: EXTERNAL,
  plugins: [ownUrls],
  legalComments: "none",
  logLevel: "silent",
});
// A warning (an import that resolves to nothing, a require of something dynamic) is a bundle that may break at run time.
if (result.errors.length > 0 || result.warnings.length > 0) {
  for (const m of [...result.errors, ...result.warnings]) console.error(`${m.location?.file ?? ""}:${m.location?.line ?? ""} ${m.text}`);
  process.exit(1);
}

// V8's code cache for the bundle, made after a run of `requests` on the demo transcript so the functions
// every command runs are in it too (src/bundle-load.ts). One-line requests: 96 -> 77 ms CPU.
const { loadBundle, sourceDigest, CACHE_SUFFIX } = await import(pathToFileURL(join(dir, "bundle-load.js")).href);
const loaded = loadBundle(out, false);
const sink = { write: () => true, once: () => sink, on: () => sink, end: () => {} };
const demo = resolve(dir, "..", "samples/claude-home/projects/-tmp-lab-demo/c0ffee00-1111-4222-8333-444444444444.jsonl");
const io = { stdin: undefined, stdout: sink, stderr: process.stderr, env: {}, cwd: process.cwd(), stdinIsTTY: true };
const code = await loaded.exports.main(["requests", demo, "--format", "json"], { ...io, stdoutIsTTY: false, stderrIsTTY: false });
if (code !== 0) throw new Error(`the bundle's warm-up run exited ${code}`);
const source = await readFile(out, "utf8");
writeFileSync(out + CACHE_SUFFIX, Buffer.concat([sourceDigest(source), loaded.script.createCachedData()]));
