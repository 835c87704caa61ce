import { test } from "node:test";
import assert from "node:assert/strict";
import { parseEnvelope, runCli } from "../helpers.js";

test("Evidence list: the --tools file is a tools/list response, not an MCP message log (markdown and HTML)", async () => {
  const md = await runCli(["demo", "--format", "markdown"]);
  assert.equal(md.code, 0, md.stderr);
  assert.match(md.stdout, /^- tools\/list response: .*big-tools-list\.json \(801 bytes\)$/m);
  assert.match(md.stdout, /^- MCP message log: .*rpc-log\.jsonl/m);
  const html = await runCli(["demo", "--format", "html"]);
  assert.match(html.stdout, /<li>tools\/list response: [^<]*big-tools-list\.json/);
  // CONTRACT's kind is unchanged in JSON.
  const j = parseEnvelope(await runCli(["demo", "--json"]), "demo");
  const tools = (j.inputs as Array<{ path: string; kind: string }>).find((i) => i.path.endsWith("big-tools-list.json"));
  assert.deepEqual(Object.keys(tools!), ["path", "kind", "bytes", "sha256"]);
  assert.equal(tools!.kind, "rpc-log");
});

test("requests CSV: addedUserText is 0 where JSON's userTextChars is 0, not empty", async () => {
  const args = ["requests", "c0ffee00", "--claude-dir", "samples/claude-home"];
  const j = parseEnvelope(await runCli([...args, "--json"]), "requests");
  const r = await runCli([...args, "--format", "csv"]);
  const [head, ...lines] = r.stdout.trimEnd().split("\r\n");
  const at = head!.split(",").indexOf("addedUserText");
  // Records begin with the table column (requests is a document of several tables, parse health among them).
  const rows = lines.filter((l) => /^requests:main,\d/.test(l)).map((l) => l.split(",")[at]);
  const want = (j.requests as Array<{ added: { userTextChars: number } }>).map((q) => String(q.added.userTextChars));
  assert.ok(want.includes("0"), "the sample has a request with no user text");
  assert.deepEqual(rows, want);
});
