import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { matchDebug, type DebugFacts } from "../../src/analyses/outputs-evidence.js";

/** The per-result scan matchDebug replaced with an index: same answers expected. */
function reference(f: DebugFacts, savedPath: string | null, startMs: number | null, endMs: number | null) {
  const timed = f.timed > 0 && startMs !== null && endMs !== null;
  const inWindow = (ms: number | null) => timed && ms !== null && ms >= startMs! - 250 && ms <= endMs! + 250;
  const ct = f.countTokens.filter((c) => inWindow(c.ms));
  const name = savedPath === null ? null : savedPath.slice(savedPath.lastIndexOf("/") + 1);
  const p =
    (name !== null ? f.persisted.find((x) => x.path.slice(x.path.lastIndexOf("/") + 1) === name) : undefined) ??
    f.persisted.find((x) => inWindow(x.ms));
  return {
    countTokensRequests: timed ? ct.length : null,
    countTokensLines: ct.map((c) => c.line),
    persistedLogged: p !== undefined ? true : name !== null || timed ? false : null,
    persistedSize: p?.size ?? null,
    persistedLine: p?.line ?? null,
  };
}

test("matchDebug with its time and name index answers as a scan of every debug event would", () => {
  const ms = fc.option(fc.integer({ min: 0, max: 3000 }), { nil: null });
  const name = fc.constantFrom("a.txt", "b.json", "c.txt");
  const facts = fc.record({
    countTokens: fc.array(fc.record({ ms, line: fc.nat(500) }), { maxLength: 15 }),
    persisted: fc.array(
      fc.record({
        ms,
        line: fc.nat(500),
        path: name.map((n) => `/x/tool-results/${n}`),
        size: fc.constantFrom("1KB", "2KB"),
        bytes: fc.constant(null),
      }),
      { maxLength: 8 },
    ),
    timed: fc.nat(2),
  });
  const query = fc.tuple(
    fc.option(
      name.map((n) => `~/p/tool-results/${n}`),
      { nil: null },
    ),
    ms,
    ms,
  );
  fc.assert(
    fc.property(facts, fc.array(query, { minLength: 1, maxLength: 5 }), (f, qs) => {
      const d: DebugFacts = { path: "debug.txt", budget: [], ...f };
      for (const [p, a, b] of qs) assert.deepEqual(matchDebug(d, p, a, b), reference(d, p, a, b));
    }),
    { numRuns: 1500 },
  );
});
