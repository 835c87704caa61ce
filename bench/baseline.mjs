// The bare Node baseline: split lines, JSON.parse every one, group assistant records by message id
// taking the max of each usage field, and sum. Mode "split" uses a hand-rolled byte splitter;
// mode "readline" uses node:readline. Prints one JSON line with the totals and peak RSS.
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

const [file, mode = "split"] = process.argv.slice(2);
const reqs = new Map();
let lines = 0,
  bad = 0;

function onLine(text) {
  lines++;
  if (text.length === 0) return;
  let o;
  try {
    o = JSON.parse(text);
  } catch {
    bad++;
    return;
  }
  if (o.type !== "assistant") return;
  const m = o.message ?? {},
    u = m.usage ?? {};
  const key = m.id ?? o.requestId ?? o.uuid;
  const r = reqs.get(key) ?? { i: 0, cc: 0, cr: 0, o: 0 };
  r.i = Math.max(r.i, u.input_tokens ?? 0);
  r.cc = Math.max(r.cc, u.cache_creation_input_tokens ?? 0);
  r.cr = Math.max(r.cr, u.cache_read_input_tokens ?? 0);
  r.o = Math.max(r.o, u.output_tokens ?? 0);
  reqs.set(key, r);
}

if (mode === "readline") {
  for await (const l of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) onLine(l);
} else {
  let rest = [];
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    let start = 0,
      nl;
    while ((nl = chunk.indexOf(10, start)) >= 0) {
      rest.push(chunk.subarray(start, nl));
      onLine((rest.length === 1 ? rest[0] : Buffer.concat(rest)).toString("utf8"));
      rest = [];
      start = nl + 1;
    }
    if (start < chunk.length) rest.push(chunk.subarray(start));
  }
  if (rest.length) onLine(Buffer.concat(rest).toString("utf8"));
}
let total = 0;
for (const r of reqs.values()) total += r.i + r.cc + r.cr;
process.stdout.write(
  JSON.stringify({ lines, bad, requests: reqs.size, totalInputTokens: total, maxRssBytes: process.resourceUsage().maxRSS * 1024 }) + "\n",
);
