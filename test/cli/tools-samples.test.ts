import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { parseEnvelope, ROOT, runCli } from "../helpers.js";

// Every sample that carries tool definitions is read by `tools`: a transcript's snapshot tools,
// deferred names and calls, a claude -p output's init names, a message log's tools/list answer. The
// names expected are read here from the raw lines, independently of the reducer.

const SAMPLES = join(ROOT, "samples");
const EMPTY_HOME = mkdtempSync(join(tmpdir(), "ccf-tools-none-"));

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? (e.name === "gen" ? [] : files(p)) : /\.(jsonl|json|log)$/.test(e.name) ? [p] : [];
  });
}

function objects(path: string): any[] {
  const text = readFileSync(path, "utf8");
  try {
    const whole = JSON.parse(text);
    return Array.isArray(whole) ? whole : [whole];
  } catch {
    return text.split("\n").flatMap((l) => {
      const at = l.indexOf("{");
      if (at < 0) return [];
      try {
        return [JSON.parse(l.slice(at).replace(/ \{ metadata: undefined \}$/, ""))];
      } catch {
        return [];
      }
    });
  }
}

/** Tool names a transcript line gives: snapshot tools, deferred-tools names, tool_use blocks, tool_reference loads. */
function transcriptNames(objs: any[]): Set<string> {
  const out = new Set<string>();
  for (const o of objs) {
    const snap = o?.type === "prompt_snapshot" ? o : o?.attachment?.type === "prompt_snapshot" ? o.attachment : null;
    for (const t of snap?.tools ?? []) if (typeof t?.name === "string") out.add(t.name);
    const a = o?.type === "attachment" ? o.attachment : null;
    if (a?.type === "deferred_tools_delta")
      for (const k of ["addedNames", "readdedNames", "removedNames"]) for (const n of a[k] ?? []) out.add(n);
    const content = o?.message?.content;
    if (Array.isArray(content))
      for (const b of content) {
        if (o.type === "assistant" && b?.type === "tool_use" && typeof b.name === "string") out.add(b.name);
        if (b?.type === "tool_result" && Array.isArray(b.content))
          for (const c of b.content) if (c?.type === "tool_reference") out.add(c.tool_name);
      }
  }
  return out;
}

const rel = (p: string) => relative(ROOT, p);
const all = files(SAMPLES);
const transcripts = all.filter((p) => /\/projects\/.+\.jsonl$/.test(p)).filter((p) => transcriptNames(objects(p)).size > 0);
const streams = all.filter(
  (p) => !p.includes("/projects/") && objects(p).some((o) => o?.type === "system" && o.subtype === "init" && Array.isArray(o.tools)),
);
const listings = all.filter(
  (p) =>
    !p.includes("/projects/") &&
    objects(p).some((o) => Array.isArray(o?.result?.tools) || (Array.isArray(o?.tools) && o?.type !== "system")),
);

test("the samples hold tool definitions of every kind `tools` reads", () => {
  assert.ok(transcripts.length >= 20, `only ${transcripts.length} transcripts with tools`);
  assert.ok(streams.length >= 10, `only ${streams.length} claude -p outputs with an init event`);
  assert.ok(listings.length >= 5, `only ${listings.length} tools/list answers`);
});

test("every transcript sample with tool definitions: each name it gives is a row of `tools`", async () => {
  for (const p of transcripts) {
    const j = parseEnvelope(await runCli(["tools", p, "--no-subagents", "--json"]), "tools");
    const rows = new Set(j.tools.map((t: any) => t.name));
    assert.deepEqual([...rows].sort(), [...transcriptNames(objects(p))].sort(), rel(p));
    const prompt = objects(p).find((o) => o?.type === "prompt_snapshot");
    assert.equal(j.systemPrompt?.chars ?? null, typeof prompt?.systemPrompt === "string" ? prompt.systemPrompt.length : null, rel(p));
  }
});

test("every claude -p output sample: its init tool names are rows, also when its transcript is not here", async () => {
  for (const p of streams) {
    const init = objects(p).find((o) => o?.type === "system" && o.subtype === "init");
    const j = parseEnvelope(await runCli(["tools", "--claude-dir", EMPTY_HOME, "--stream-json", p, "--json"]), "tools");
    assert.deepEqual(j.tools.map((t: any) => t.name).sort(), [...new Set<string>(init.tools)].sort(), rel(p));
  }
});

test("every tools/list sample: each listed tool is a row with its description size", async () => {
  for (const p of listings) {
    const listed = objects(p).flatMap((o) => o?.result?.tools ?? (o?.type !== "system" ? (o?.tools ?? []) : []));
    const flag = p.endsWith(".json") ? "--tools" : "--rpc-log";
    const j = parseEnvelope(await runCli(["tools", "-", flag, p, "--json"], { stdin: "" }), "tools");
    const rows = byToolName(j.tools);
    for (const l of listed) {
      const r = rows.get(l.name);
      assert.ok(r, `${rel(p)}: ${l.name} missing`);
      assert.equal(r.sourceDescriptionChars, typeof l.description === "string" ? l.description.length : null, `${rel(p)}: ${l.name}`);
    }
  }
});

const byToolName = (rows: any[]) => new Map<string, any>(rows.map((t) => [t.toolName, t]));
