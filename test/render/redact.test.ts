import { test } from "node:test";
import assert from "node:assert/strict";
import { makeRedactor } from "../../src/report/redact.js";
import { runCli, sample } from "../helpers.js";

test("home directories of any user and OS become ~", () => {
  const r = makeRedactor();
  const s = "/Users/alice/x /home/bob/.claude/projects/p C:\\Users\\carol\\a /root/.claude /home/dev";
  r.collect(s);
  assert.equal(r.apply(s), "~/x ~/.claude/projects/p ~\\a ~/.claude ~");
});

test("a home dir only where a path starts: /tmp/home/alice and /srv/Users/x are left alone", () => {
  const r = makeRedactor();
  const s = 'cwd=/home/dev/a "/Users/eve/b" (/root/c) /tmp/home/alice/x /srv/Users/x/y a.b/home/z';
  assert.equal(r.apply(s), 'cwd=~/a "~/b" (~/c) /tmp/home/alice/x /srv/Users/x/y a.b/home/z');
});

test("ids keep a short stable prefix; two ids sharing it stay distinct", () => {
  const r = makeRedactor();
  const s =
    "msg_01DnAatudURBzrqk7oHdzYKg msg_01DnAbXXXXXXXXX toolu_01XfABCDEFGH 11111111-2222-4333-8444-555555555555 11111111-2222-4333-8444-555555555555 tool-results/b1a2c3d4e.txt tool-results/mcp-big-emit_text-1789422257974.txt";
  r.collect(s);
  assert.equal(
    r.apply(s),
    "msg_01DnAa… msg_01DnAb… toolu_01Xf… 11111111… 11111111… tool-results/b1a2….txt tool-results/mcp-big-emit_text-1789….txt",
  );
});

test("--redact: no home path and no full id survives in any format; numbers are unchanged", async () => {
  const file = sample("basic", "11111111-2222-4333-8444-555555555555.jsonl");
  const plain = JSON.parse((await runCli(["requests", file, "--json"])).stdout);
  const ids = plain.requests.flatMap((r: any) => [r.messageId, r.requestId]).concat(["11111111-2222-4333-8444-555555555555"]);
  for (const cmd of ["requests", "inventory"]) {
    for (const format of ["table", "markdown", "csv", "json"]) {
      const r = await runCli([cmd, file, "--redact", "--format", format]);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(!/\/home\/|\/Users\//.test(r.stdout), `${cmd} ${format}: home path survived`);
      for (const id of ids) assert.ok(!r.stdout.includes(id), `${cmd} ${format}: ${id} survived`);
    }
  }
  const red = JSON.parse((await runCli(["requests", file, "--redact", "--json"])).stdout);
  assert.deepEqual(
    red.requests.map((r: any) => r.totalInputTokens),
    plain.requests.map((r: any) => r.totalInputTokens),
  );
  assert.equal(red.inputs[0].sha256, plain.inputs[0].sha256);
});

test("redacted ids: the shortest unique prefix, as comparing every id with every other would give", async () => {
  const fc = (await import("fast-check")).default;
  const reference = (ids: string[], id: string, keep: number) => {
    let n = Math.min(keep, id.length);
    while (n < id.length && ids.some((o) => o !== id && o.startsWith(id.slice(0, n)))) n++;
    return n >= id.length ? id : `${id.slice(0, n)}…`;
  };
  const id = fc.string({ unit: fc.constantFrom("A", "B"), minLength: 8, maxLength: 14 }).map((s: string) => `msg_${s}`);
  fc.assert(
    fc.property(fc.uniqueArray(id, { minLength: 1, maxLength: 30 }), (ids: string[]) => {
      const r = makeRedactor();
      r.collect(ids.join(" "));
      for (const x of ids) assert.equal(r.apply(x), reference(ids, x, 8));
    }),
    { numRuns: 500 },
  );
});
