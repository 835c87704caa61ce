import { test } from "node:test";
import assert from "node:assert/strict";
import { FleetCopies } from "../../src/analyses/fleet-copies.js";
import type { RequestRow } from "../../src/analyses/request-row.js";

// export's duplicate_of: a request's mark is `session/chain#request_index` (as `requests` writes `chain#index`);
// a tool result's or an instructions delivery's number is another table's index, so its mark says which
// (`/result#`, `/delivery#`): a join on the request notation must never find a result's first copy.

const request = (chain: string, index: number, messageId: string) =>
  ({ chain, index, messageId, duplicateOf: null }) as unknown as RequestRow;

test("fleet copies: results and deliveries are marked session/chain/result#N and /delivery#N, requests session/chain#N", () => {
  const copies = new FleetCopies();
  const keys = (sessionId: string) => ({
    sessionId,
    results: [
      { toolUseId: "toolu_A0", chain: "main" },
      { toolUseId: "toolu_A1", chain: "main" },
    ],
    instructions: [{ uuid: "u1", server: "db", chain: "main" }],
    tools: [],
  });
  assert.deepEqual(copies.mark(keys("s1")), { results: [null, null], instructions: [null], copiedCalls: [] });
  assert.equal(copies.requestCopy("s1", request("main", 2, "msg_2")), null);
  // The resume copy: its results, delivery and request name the first session's.
  const again = copies.mark({ ...keys("s2"), results: [{ toolUseId: "toolu_A1", chain: "main" }] });
  assert.deepEqual(again.results, ["s1/main/result#2"]);
  assert.deepEqual(again.instructions, ["s1/main/delivery#1"]);
  assert.equal(copies.requestCopy("s2", request("main", 1, "msg_2")), "s1/main#2");
  // A request's own mark within its session stays `chain#index`.
  assert.equal(copies.requestCopy("s2", { ...request("main", 3, "msg_9"), duplicateOf: "main#1" }), "main#1");
});
