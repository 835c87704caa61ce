import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import { codewordsFor } from "../../src/lab/instructions-text.js";
import { toolDescription } from "../../src/lab/instructions-server.js";
import { emitJson } from "../../src/lab/output-json.js";
import { MIN_PNG_BYTES, labImage } from "../../src/lab/output-image.js";
import { emitContent } from "../../src/lab/output-server.js";
import { BASE64_PER_LINE, HEX_PER_LINE, emitMarkers, emitText } from "../../src/lab/output-text.js";
import { parseEnvelope, runCli } from "../helpers.js";
import { StdioClient, killAll } from "./stdio-client.js";

after(killAll);

const INIT = {
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "claude-code", version: "2.1.285" } },
};
const PROBE = {
  id: "server-discover-probe-1",
  method: "server/discover",
  params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
};
const bodyOf = (t: string) => t.split("\n").slice(1, -2);

test("content base64 / hex / mixed: exact lengths, markers on their own lines, body lines of the stated alphabet and width", () => {
  for (const n of [0, 1, 45, 46, 100, 5000, 52000])
    for (const k of ["base64", "hex", "mixed"] as const) assert.equal(emitText(n, k).length, n, `${k} ${n}`);
  const b = emitText(52000, "base64");
  const m = emitMarkers(52000, "base64");
  assert.ok(b.startsWith(`BEGIN-MARKER: ${m.start}\n`) && b.endsWith(`\nEND-MARKER: ${m.end}\n`));
  for (const l of bodyOf(b).slice(0, -1)) {
    assert.equal(l.length, BASE64_PER_LINE);
    assert.match(l, /^[A-Za-z0-9+/]+$/);
  }
  const h = emitText(52000, "hex");
  for (const l of bodyOf(h).slice(0, -1)) assert.match(l, new RegExp(`^[0-9a-f]{${HEX_PER_LINE}}$`));
  assert.notEqual(emitMarkers(52000, "hex").end, emitMarkers(52000, "base64").end, "each content has its own markers");
  const mixed = bodyOf(emitText(30000, "mixed"));
  assert.match(mixed[0]!, /^000001 [a-z]+( [a-z]+){7}$/);
  assert.match(mixed[1]!, /^[\u4e00-\u9fa5]{59}$/);
  assert.match(mixed[2]!, /^[A-Za-z0-9+/]{76}$/);
  assert.match(mixed[3]!, /^[0-9a-f]{64}$/);
  assert.match(mixed[4]!, /^000005 /);
  assert.equal(emitText(30000, "words"), emitText(30000), "words stays seed 003's text");
});

test("content json: valid minified JSON of exactly N chars for every N from the frame up, markers first and last", () => {
  const frame = '{"begin":"BEGIN-MARKER: start-00000000","d":[],"end":"END-MARKER: end-00000000"}'.length;
  for (let n = 0; n < 400; n++) {
    const t = emitJson(n);
    assert.equal(t.length, n, String(n));
    if (n >= frame) assert.doesNotThrow(() => JSON.parse(t), t);
    else assert.throws(() => JSON.parse(t), SyntaxError, `${n}: below the frame it is a cut frame`);
  }
  for (const n of [1000, 30000, 52001, 66000]) {
    const t = emitJson(n);
    assert.equal(t.length, n);
    assert.ok(!t.includes("\n") && !t.includes(" ,"), "one line, minified");
    const v = JSON.parse(t);
    const m = emitMarkers(n, "json");
    assert.deepEqual(Object.keys(v), ["begin", "d", "end"]);
    assert.equal(v.begin, `BEGIN-MARKER: ${m.start}`);
    assert.equal(v.end, `END-MARKER: ${m.end}`);
    assert.ok(v.d.length > n / 40, `${v.d.length} elements`);
    assert.deepEqual(Object.keys(v.d[0]), ["a", "b", "c"]);
  }
});

test("content image: a decodable PNG of exactly N bytes, stated in the text item with the END marker", () => {
  for (const n of [MIN_PNG_BYTES, MIN_PNG_BYTES + 1, 1000, 65536 * 3, 300000]) {
    const img = labImage(n);
    assert.equal(img.png.length, n, String(n));
    assert.deepEqual([...img.png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // Walk the chunks: lengths add up, IDAT inflates to the image's rows.
    let o = 8;
    const types: string[] = [];
    let idat: Buffer = Buffer.alloc(0);
    while (o < n) {
      const len = img.png.readUInt32BE(o);
      const type = img.png.toString("latin1", o + 4, o + 8);
      types.push(type);
      if (type === "IDAT") idat = img.png.subarray(o + 8, o + 8 + len);
      o += 12 + len;
    }
    assert.equal(o, n);
    assert.deepEqual(types, ["IHDR", "IDAT", "paDd", "IEND"]);
    assert.equal(inflateSync(idat).length, img.height * (img.width * 3 + 1));
  }
  assert.ok(labImage(300000).width > 300, "the pixels fill most of the size");
  assert.throws(() => labImage(MIN_PNG_BYTES - 1), /at least/);
  const [image, note] = emitContent(5000, "image");
  assert.equal(image!.type, "image");
  assert.equal(image!.mimeType, "image/png");
  assert.equal(Buffer.from(String(image!.data), "base64").length, 5000);
  assert.match(
    String(note!.text),
    new RegExp(`^IMAGE image/png \\d+x\\d+, 5000 bytes \\(6668 base64 chars\\)\\nEND-MARKER: ${emitMarkers(5000, "image").end}\\n$`),
  );
});

test("lab output --content over stdio: each mode's tools/call, image size bounds, --cjk kept, contradictions refused", async () => {
  const c = new StdioClient(["lab", "output", "--content", "json"]);
  const list = (await c.request({ id: 2, method: "tools/list" })).result.tools;
  assert.match(list[0].description, /minified JSON/);
  const r = await c.request({ id: 3, method: "tools/call", params: { name: "emit_text_annotated", arguments: { chars: 52000 } } });
  assert.equal(r.result.content[0].text.length, 52000);
  JSON.parse(r.result.content[0].text);
  await c.end();
  const img = new StdioClient(["lab", "output"], { LAB_CONTENT: "image" });
  const tools = (await img.request({ id: 1, method: "tools/list" })).result.tools;
  assert.equal(tools[0].inputSchema.properties.chars.minimum, MIN_PNG_BYTES);
  const ok = await img.request({ id: 2, method: "tools/call", params: { name: "emit_text", arguments: { chars: 70000 } } });
  assert.equal(Buffer.from(ok.result.content[0].data, "base64").length, 70000);
  const small = await img.request({ id: 3, method: "tools/call", params: { name: "emit_text", arguments: { chars: 10 } } });
  assert.equal(small.error.code, -32602);
  assert.match(small.error.message, /image size in bytes/);
  await img.end();
  for (const [args, msg] of [
    [["--content", "gif"], /--content must be one of words, cjk, base64, json, hex, image, mixed/],
    [["--content", "hex", "--cjk"], /--cjk contradicts --content hex/],
  ] as const) {
    const bad = await runCli(["lab", "output", ...args]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, msg);
  }
  const cjk = new StdioClient(["lab", "output", "--cjk"]);
  const t = (await cjk.request({ id: 1, method: "tools/call", params: { name: "emit_text", arguments: { chars: 1000 } } })).result
    .content[0].text;
  assert.equal(t, emitText(1000, "cjk"));
  await cjk.end();
});

test("lab instructions --tools N --tool-description-chars N: descriptions of exact length with their own codewords", async () => {
  const c = new StdioClient(["lab", "instructions", "--tools", "5", "--tool-description-chars", "5000"]);
  const tools = (await c.request({ id: 2, method: "tools/list" })).result.tools;
  assert.deepEqual(
    tools.map((t: any) => t.name),
    ["lookup_part", "list_bins", "lab_ping", "lab_tool_04", "lab_tool_05"],
  );
  for (const t of tools) {
    assert.equal(t.description.length, 5000);
    const cw = codewordsFor(5000, "en", "legacy", t.name);
    assert.ok(t.description.startsWith(`BEGIN codeword: ${cw.begin}. `) && t.description.endsWith(` END codeword: ${cw.end}.`));
  }
  assert.equal(new Set(tools.map((t: any) => t.description.slice(0, 30))).size, 5, "one codeword pair per tool");
  assert.ok(tools[0].description.slice(0, 2048).includes("[at 2009]"), "same marker layout as the instructions text");
  assert.equal(
    (await c.request({ id: 3, method: "tools/call", params: { name: "lab_tool_05", arguments: {} } })).result.content[0].text,
    "lab_tool_05",
  );
  assert.equal((await c.request({ id: 4, method: "tools/call", params: { name: "lab_tool_06", arguments: {} } })).error.code, -32602);
  await c.end();
  assert.equal(toolDescription("x", 3000, "ja").length, 3000);
  const one = new StdioClient(["lab", "instructions"], { LAB_TOOLS: "1" });
  assert.deepEqual(
    (await one.request({ id: 1, method: "tools/list" })).result.tools.map((t: any) => [t.name, t.description]),
    [["lookup_part", "Look up one part number: stock count and bin."]],
  );
  await one.end();
  const bad = await runCli(["lab", "instructions", "--tool-description-chars", "30"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--tool-description-chars 30 cannot hold both codewords/);
  assert.equal((await runCli(["lab", "output", "--tools", "4"])).code, 2);
});

test("lab --probe: error answers -32601 (default), hang never answers the probe but serves initialize, crash exits 1 and logs why", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-probe-"));
  const hangLog = join(dir, "hang.jsonl");
  const hang = new StdioClient(["lab", "instructions", "--probe", "hang", "--log", hangLog]);
  hang.send({ jsonrpc: "2.0", ...PROBE });
  const init = await hang.request(INIT);
  assert.equal(init.id, 1, "the first reply is initialize's: the probe got none");
  assert.equal(init.result.protocolVersion, "2025-11-25");
  assert.equal(await hang.end(), 0);
  assert.match(hang.stderr, /server\/discover \(id server-discover-probe-1\): no reply, on purpose/);
  const j = parseEnvelope(await runCli(["rpc", hangLog, "--json"]), "rpc");
  assert.deepEqual([j.rpc.probe.answered, j.rpc.probeOutcome, j.rpc.era], ["none", "unanswered", "legacy"]);

  const crashLog = join(dir, "crash.jsonl");
  const crash = new StdioClient(["lab", "instructions", "--log", crashLog], { LAB_PROBE: "crash" });
  crash.send({ jsonrpc: "2.0", ...PROBE });
  assert.equal(await crash.exited, 1, "exits without stdin being closed");
  assert.equal(crash.lines.length, 0, "nothing on stdout");
  assert.match(crash.stderr, /exited on server\/discover \(--probe crash\)/);
  const lines = readFileSync(crashLog, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    lines.map((l) => l.method ?? l.event),
    ["server/discover", "exit"],
  );
  assert.equal(lines[1].code, 1);

  const err = new StdioClient(["lab", "output"]);
  assert.equal((await err.request(PROBE)).error.code, -32601, "the output server refuses the probe too");
  await err.end();
  for (const [args, msg] of [
    [["lab", "instructions", "--probe", "slow"], /--probe must be one of error, hang, crash/],
    [["lab", "instructions", "--dual", "--probe", "hang"], /--probe hang is for a legacy server/],
  ] as const) {
    const bad = await runCli([...args]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, msg);
  }
});

test("lab: a diagnostic quoting the client's message shows its control, bidi and invisible characters escaped", async () => {
  const client = new StdioClient(["lab", "instructions", "--probe", "hang"]);
  client.send({ jsonrpc: "2.0", id: "=\u001b[2J\u009b\u0085\u202e\u200b\u2028x", method: "server/discover" });
  assert.equal(await client.end(), 0);
  assert.doesNotMatch(client.stderr, /[\u001b\u007f-\u009f\u200b\u202e\u2028]/);
  assert.ok(client.stderr.includes("(id =\\x1b[2J\\x9b\\x85\\u202e\\u200b\\u2028x): no reply, on purpose"), client.stderr);
});
