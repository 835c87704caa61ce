import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { ROOT } from "../helpers.js";

/**
 * The layers of docs/REFERENCE.md "Design", lowest first: sources ← records ← analyses ← assemble ← report ←
 * render, then gathering (pipeline) and file output, the lab, commands and the CLI on top. errors.ts,
 * io.ts and package-root.ts are leaves every layer may use. A file may import its own folder and lower layers only;
 * renderers see the report model alone. `errors.ts` is shared by every layer.
 */
const RANK: Record<string, number> = {
  "errors.ts": 0,
  "io.ts": 0,
  "package-root.ts": 0,
  sources: 1,
  records: 2,
  analyses: 3,
  assemble: 4,
  report: 5,
  render: 6,
  pipeline: 7,
  output: 7,
  lab: 8,
  commands: 9,
  "main.ts": 10,
  "bundle-load.ts": 10,
  "cli.ts": 11,
};
const RENDER_MAY_IMPORT = new Set(["render", "report", "errors.ts"]);

const SRC = join(ROOT, "src");

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** Relative specifiers of `import … from`, `export … from` and `import("…")`, as src-relative .ts paths. */
export function importsOf(file: string, text: string): string[] {
  const out: string[] = [];
  const re = /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+)"|\bimport\(\s*"(\.[^"]+)"\s*\)/g;
  for (const m of text.matchAll(re)) {
    const spec = (m[1] ?? m[2])!;
    out.push(relative(SRC, join(file, "..", spec)).replace(/\.js$/, ".ts"));
  }
  return out;
}

const layerOf = (rel: string): string => (rel.includes("/") ? rel.slice(0, rel.indexOf("/")) : rel);

function graph(): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const f of tsFiles(SRC)) g.set(relative(SRC, f), importsOf(f, readFileSync(f, "utf8")));
  return g;
}

/** Import edges that climb a layer, or leave render for anything but the report model. */
export function upwardImports(g: Map<string, string[]>): string[] {
  const bad: string[] = [];
  for (const [from, tos] of g) {
    const lf = layerOf(from);
    for (const to of tos) {
      const lt = layerOf(to);
      if (lf === lt) continue;
      const rf = RANK[lf];
      const rt = RANK[lt];
      if (rf === undefined || rt === undefined) bad.push(`${from} -> ${to} (layer not in RANK)`);
      else if (rt >= rf) bad.push(`${from} -> ${to}`);
      else if (lf === "render" && !RENDER_MAY_IMPORT.has(lt)) bad.push(`${from} -> ${to} (render sees only report)`);
    }
  }
  return bad.sort();
}

/** Every import cycle between files, each as the path that closes it. */
export function cycles(g: Map<string, string[]>): string[] {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const found: string[] = [];
  const visit = (f: string) => {
    state.set(f, "open");
    stack.push(f);
    for (const t of g.get(f) ?? []) {
      if (state.get(t) === "open") found.push([...stack.slice(stack.indexOf(t)), t].join(" -> "));
      else if (!state.has(t) && g.has(t)) visit(t);
    }
    stack.pop();
    state.set(f, "done");
  };
  for (const f of [...g.keys()].sort()) if (!state.has(f)) visit(f);
  return found;
}

test("imports point down the layers: sources ← records ← analyses ← assemble ← report ← render, commands above", () => {
  assert.deepEqual(upwardImports(graph()), []);
});

test("no import cycle between source files", () => {
  assert.deepEqual(cycles(graph()), []);
});

test("the checks themselves catch an upward import and a cycle", () => {
  const g = new Map([
    ["records/a.ts", ["analyses/b.ts"]],
    ["analyses/b.ts", ["records/a.ts"]],
    ["render/c.ts", ["sources/d.ts"]],
    ["sources/d.ts", []],
  ]);
  assert.deepEqual(upwardImports(g), ["records/a.ts -> analyses/b.ts", "render/c.ts -> sources/d.ts (render sees only report)"]);
  assert.deepEqual(cycles(g), ["analyses/b.ts -> records/a.ts -> analyses/b.ts"]);
  assert.deepEqual(
    importsOf(
      join(SRC, "records/x.ts"),
      'import { a } from "../sources/lines.js";\nexport { b } from "./json.js";\nconst v = await import("../render/chart.js");',
    ),
    ["sources/lines.ts", "records/json.ts", "render/chart.ts"],
  );
});
