import { test } from "node:test";
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import fc from "fast-check";
import { requestsAnalysis } from "../../src/analyses/requests.js";
import { Fanout } from "../../src/analyses/analysis.js";
import { scanTranscripts } from "../read.js";
import type { InputFile } from "../../src/sources/input.js";
import { toRecord, type AssistantRecord } from "../../src/records/transcript.js";
import { isCount } from "../../src/records/values.js";
import { assistant, jsonl } from "../builders.js";

const FIELDS = ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens"] as const;
/** Counts near the edges and every other JSON type, huge and negative numbers included. */
const value = fc.oneof(
  fc.nat(),
  fc.constantFrom(0, Number.MAX_SAFE_INTEGER, 2 ** 53, 1e308, -1e308, -0, -1, 0.5, 5e-324),
  fc.double({ noNaN: true }),
  fc.string(),
  fc.constant(null),
  fc.boolean(),
  fc.array(fc.nat(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.nat(), { maxKeys: 2 }),
);
const usage = fc.record(Object.fromEntries(FIELDS.map((f) => [f, value])) as Record<(typeof FIELDS)[number], typeof value>, {
  requiredKeys: [],
});

test("property: any JSON value in a usage field is a count or unknown (null), and listed iff it is no count", () => {
  fc.assert(
    fc.property(usage, (u) => {
      const raw = assistant() as Record<string, any>;
      raw.message.usage = u;
      const rec = toRecord(JSON.parse(JSON.stringify(raw)), { file: "p", line: 1 }, "main") as AssistantRecord;
      const parsed = JSON.parse(JSON.stringify(u)) as Record<string, unknown>;
      const bad = FIELDS.filter((f) => f in parsed && !isCount(parsed[f]));
      assert.deepEqual(
        rec.invalid.map((v) => v.field),
        bad.map((f) => `message.usage.${f}`),
      );
      for (const v of Object.values(rec.usage!)) assert.ok(v === null || isCount(v));
    }),
    { numRuns: 500 },
  );
});

test("property: request totals are always null or finite non-negative safe integers", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), usage), { minLength: 1, maxLength: 8 }), async (frags) => {
      const recs = frags.map(([id, u]) => {
        const raw = assistant({ id: `msg_${id}` }) as Record<string, any>;
        raw.message.usage = u;
        return raw;
      });
      const fan = new Fanout({ requests: requestsAnalysis });
      const input: InputFile = { path: "-", kind: "transcript", bytes: 0, sha256: "", chain: "main" };
      const health = await scanTranscripts([input], (r) => fan.step(r), { stdin: Readable.from([Buffer.from(jsonl(...recs))]) });
      const r = fan.finish().requests;
      for (const t of r.totals) for (const v of Object.values(t)) if (typeof v === "number") assert.ok(isCount(v), String(v));
      for (const q of r.requests)
        for (const k of ["inputTokens", "cacheReadInputTokens", "cacheCreationInputTokens", "outputTokens", "totalInputTokens"] as const)
          assert.ok(q[k] === null || isCount(q[k]), `${k}=${q[k]}`);
      assert.equal(health.records, frags.length);
    }),
    { numRuns: 300 },
  );
});
