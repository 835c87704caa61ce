import { test } from "node:test";
import assert from "node:assert/strict";
import { makeRedactor } from "../../src/report/redact.js";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
  // A file URI starts a path after its scheme.
  assert.equal(r.apply("file_path=file:///home/alice/secret.txt file:///Users/bo/x"), "file_path=file://~/secret.txt file://~/x");
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

test("redacted ids: the shortest unique prefix while it is short, as comparing every id with every other would give", async () => {
  const fc = (await import("fast-check")).default;
  // ids that differ within keep + 8 characters (and before the last 4): the common case, unchanged.
  const reference = (ids: string[], id: string, keep: number) => {
    let n = Math.min(keep, id.length);
    while (n < id.length && ids.some((o) => o !== id && o.startsWith(id.slice(0, n)))) n++;
    return `${id.slice(0, n)}…`;
  };
  const id = fc.string({ unit: fc.constantFrom("A", "B"), minLength: 12, maxLength: 14 }).map((s: string) => `msg_${s}`);
  fc.assert(
    fc.property(fc.uniqueArray(id, { minLength: 1, maxLength: 30 }), (ids: string[]) => {
      const r = makeRedactor();
      r.collect(ids.join(" "));
      for (const x of ids) {
        const n = reference(ids, x, 8).length - 1;
        if (n <= 16 && n <= x.length - 4) assert.equal(r.apply(x), reference(ids, x, 8));
      }
    }),
    { numRuns: 500 },
  );
});

test("redacted ids: never a whole id, the same text each time, and two ids never one text", async () => {
  const fc = (await import("fast-check")).default;
  // Few letters and short ids: ids sharing all but their end, ids that end another, are common here.
  const id = fc.oneof(
    fc.string({ unit: fc.constantFrom("A", "B"), minLength: 8, maxLength: 14 }).map((s: string) => `msg_${s}`),
    fc.string({ unit: fc.constantFrom("a", "b"), minLength: 8, maxLength: 8 }).map((s: string) => `tool-results/b${s}.txt`),
    fc.string({ unit: fc.constantFrom("0", "1"), minLength: 12, maxLength: 12 }).map((s: string) => `abcdef12-0000-4000-8000-${s}`),
  );
  fc.assert(
    fc.property(fc.uniqueArray(id, { minLength: 1, maxLength: 30 }), (ids: string[]) => {
      const r = makeRedactor();
      r.collect(ids.join(" "));
      const texts = ids.map((x) => r.apply(x));
      ids.forEach((x, i) => {
        const bare = x.replace(/^tool-results\/|\.txt$/g, "");
        assert.ok(!texts[i]!.includes(bare), `${x} survived as ${texts[i]}`);
        assert.equal(r.apply(x), texts[i], "stable");
      });
      assert.equal(new Set(texts).size, ids.length, `two ids, one text: ${texts.join(" ")}`);
    }),
    { numRuns: 1000 },
  );
});

test("session ids differing only in their last character: the usual prefix, …, and a tail", () => {
  const r = makeRedactor();
  const a = "abcdef12-0000-4000-8000-000000000001";
  const b = "abcdef12-0000-4000-8000-000000000002";
  const s = `${a} ${b} c0ffee00-1111-4222-8333-444444444444 ${a}`;
  r.collect(s);
  assert.equal(r.apply(s), "abcdef12…0001 abcdef12…0002 c0ffee00… abcdef12…0001");
  assert.equal(r.apply(`/p/${b}.jsonl`), "/p/abcdef12…0002.jsonl");
  // ids sharing a long tail as well: the tail grows until it is unique.
  const t = makeRedactor();
  const ids = ["5e1c0a52-0003-4000-8000-000000066000", "5e1c0a52-0003-4000-8000-e50000066000", "5e1c0a52-0003-4000-8000-000000062000"];
  t.collect(ids.join(" "));
  assert.deepEqual(
    ids.map((x) => t.apply(x)),
    ["5e1c0a52…00000066000", "5e1c0a52…50000066000", "5e1c0a52…2000"],
  );
});

test("ids whose tail would show nearly all of them: the usual prefix, …#, and a hash", () => {
  const r = makeRedactor();
  // Two Bash output names sharing 8 of 9 characters: a 4-character tail would leave 1 hidden.
  const s = "tool-results/bk3v9x2qa.txt tool-results/bk3v9x2qb.txt";
  r.collect(s);
  const out = r.apply(s);
  assert.match(out, /^tool-results\/bk3v…#[0-9a-f]{4,}\.txt tool-results\/bk3v…#[0-9a-f]{4,}\.txt$/);
  const [x, y] = out.split(" ");
  assert.notEqual(x, y);
});

test("saved-file names are redacted bare, at the start of a string and cut by a summary's …", () => {
  const r = makeRedactor();
  r.collect(
    "~/.claude/projects/p/s/tool-results/bk3v9x2qa.txt ~/.claude/projects/p/s/tool-results/mcp-big-emit_text-1789422257974.txt " +
      "tool-results/toolu_01VoSi5m4MnaQ5yD8qzkWMeN.json tool-results/a1b2c3d4e5f6.png",
  );
  const cases: Array<[string, string]> = [
    ["bk3v9x2qa.txt · text, 460 lines", "bk3v….txt · text, 460 lines"],
    ["mcp-big-emit_text-1789422257974.txt · text", "mcp-big-emit_text-1789….txt · text"],
    [
      "file_path=~/.claude/pr…t_text-1789422257974.txt offset=1100 limit=20",
      "file_path=~/.claude/pr…t_text-1789….txt offset=1100 limit=20",
    ],
    ["file_path=~/.claude/pr…1789422257974.txt", "file_path=~/.claude/pr…1789….txt"],
    ["cat ~/x/tool-re…k3v9x2qa.txt", "cat ~/x/tool-re….txt"],
    ["Read …22257974.txt", "Read ….txt"],
    ["Read …VoSi5m4MnaQ5yD8qzkWMeN.json", "Read ….json"],
    ["a1b2c3d4e5f6.png", "a1b2….png"],
    [
      "Output has been saved to /s/tool-results/mcp-big-emit_text-1789422257974.txt.",
      "Output has been saved to /s/tool-results/mcp-big-emit_text-1789….txt.",
    ],
    // Not names: an ordinary number, the stamp as a number, a word of b and 8 letters, a cut too short to matter (5 characters).
    ["took 1789422257974 ms, 1789422257974.5 s; backtests.txt …57974", "took 1789422257974 ms, 1789422257974.5 s; backtests.txt …57974"],
  ];
  for (const [s, want] of cases) assert.equal(r.apply(s), want, s);
});

test("--redact: outputs and report on samples/claude-home print no saved-file name and no ms stamp of one, in any format", async () => {
  const dir = sample("claude-home");
  const plain = JSON.parse((await runCli(["outputs", "c0ffee00", "--claude-dir", dir, "--json"])).stdout);
  const names = new Set<string>();
  for (const row of plain.toolResults) {
    const m = /tool-results[/\\]([^/\\]+)$/.exec(row.savedPath ?? "");
    if (m) names.add(m[1]!);
  }
  assert.ok(names.size >= 2, `saved files in the sample: ${[...names].join(", ")}`);
  const stamps = [...names].flatMap((n) => /-(\d{13})\.[a-z0-9]+$/.exec(n)?.[1] ?? []);
  assert.ok(stamps.length >= 1);
  for (const cmd of ["outputs", "report"]) {
    for (const format of ["table", "markdown", "csv", "html", "json"]) {
      const r = await runCli([cmd, "c0ffee00", "--claude-dir", dir, "--redact", "--format", format]);
      assert.equal(r.code, 0, r.stderr);
      for (const n of [...names, ...stamps]) assert.ok(!r.stdout.includes(n), `${cmd} ${format}: ${n} survived`);
      assert.ok(r.stdout.includes("1789…"), `${cmd} ${format}: the redacted name is shown`);
    }
  }
});

test("--redact: sessions and servers on samples/claude-home print two ids sharing all but the last character apart, never whole", async () => {
  const dir = sample("claude-home");
  const a = "abcdef12-0000-4000-8000-000000000001";
  const b = "abcdef12-0000-4000-8000-000000000002";
  for (const cmd of ["sessions", "servers"]) {
    for (const format of ["table", "markdown", "csv", "html", "json"]) {
      const r = await runCli([cmd, "--claude-dir", dir, "--redact", "--format", format]);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(!r.stdout.includes(a) && !r.stdout.includes(b), `${cmd} ${format}: a whole id survived`);
      assert.match(r.stdout, /abcdef12…0001/, `${cmd} ${format}`);
      assert.match(r.stdout, /abcdef12…0002/, `${cmd} ${format}`);
    }
  }
  const j = JSON.parse((await runCli(["sessions", "--claude-dir", dir, "--redact", "--json"])).stdout);
  assert.deepEqual(j.sessions.map((s: any) => s.sessionId).sort(), ["abcdef12…0001", "abcdef12…0002", "c0ffee00…"]);
});

test("a project folder named after a home dir seen in the output loses the user name too", () => {
  const r = makeRedactor();
  const s =
    "cwd /home/dev/my.app, file /srv/c/projects/-home-dev-my-app/a.jsonl, key -home-dev-ledger, C:\\Users\\carol\\x projects\\C--Users-carol-x\\b.jsonl, not-home-dev -home-devil, -home-dev";
  r.collect(s);
  assert.equal(
    r.apply(s),
    "cwd ~/my.app, file /srv/c/projects/~-my-app/a.jsonl, key ~-ledger, ~\\x projects\\~-x\\b.jsonl, not-home-dev -home-devil, ~",
  );
});

test("a project folder named after a home dir loses the user name even when the home dir is nowhere in the output", () => {
  const r = makeRedactor();
  const s = [
    "/srv/c/projects/-Users-alice-work-proj/a.jsonl",
    "-home-bob-proj",
    "D:\\copies\\projects\\C--Users-carol-x\\b.jsonl",
    "/c/projects/-root-lab/x.jsonl",
    "/c/projects/-Users-dave",
    // Not a folder name that starts with a home dir: left alone.
    "run -home-page-tab",
    "/c/projects/-tmp-lab-demo/x.jsonl",
    "/c/projects/-rooted-x/y",
  ];
  for (const x of s) r.collect(x);
  assert.deepEqual(
    s.map((x) => r.apply(x)),
    [
      "/srv/c/projects/~-work-proj/a.jsonl",
      "~-proj",
      "D:\\copies\\projects\\~-x\\b.jsonl",
      "/c/projects/~-lab/x.jsonl",
      "/c/projects/~",
      "run -home-page-tab",
      "/c/projects/-tmp-lab-demo/x.jsonl",
      "/c/projects/-rooted-x/y",
    ],
  );
});

test("--redact: a session copied out of its home, whose records name no home dir, prints no user name from its project folder", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-redact-key-"));
  const project = join(dir, "c", "projects", "-Users-alice-work-proj");
  mkdirSync(project, { recursive: true });
  const id = "abcdef12-0000-4000-8000-000000000001";
  const text = readFileSync(sample("claude-home", "projects", "-home-dev-my-app", `${id}.jsonl`), "utf8").replaceAll("/home/dev", "/srv");
  writeFileSync(join(project, `${id}.jsonl`), text);
  for (const cmd of ["sessions", "requests", "tools", "report"])
    for (const format of ["json", "markdown", "table", "csv"]) {
      const args = cmd === "sessions" ? [cmd] : [cmd, id];
      const r = await runCli([...args, "--claude-dir", join(dir, "c"), "--redact", "--format", format]);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(!r.stdout.includes("alice"), `${cmd} ${format}: the user name survived`);
      if (format === "json") assert.ok(r.stdout.includes("~-work-proj"), `${cmd}: ${r.stdout.slice(0, 400)}`);
    }
});

test("an id a cut ended (`…` right after it) keeps only its kind's prefix, whole id elsewhere or not", () => {
  const r = makeRedactor();
  const s = [
    '{"sessionId":"5eed1234-aaaa-4bbb-8ccc-01234567…',
    '"toolUseID":"toolu_01ABCDEFGHIJKLMNOPQRS…',
    "msg_01DnAatudURBzrqk7oHdzYKg and msg_01DnAatudURBzr…",
    "some-long-plain-words…",
  ];
  for (const x of s) r.collect(x);
  assert.deepEqual(
    s.map((x) => r.apply(x)),
    ['{"sessionId":"5eed1234…', '"toolUseID":"toolu_01AB…', "msg_01Dn… and msg_01Dn…", "some-long-plain-words…"],
  );
});

test("--redact: a health excerpt is redacted before the human formats cut it to 60 characters", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ccf-redact-cut-"));
  const file = join(dir, "5eed1234-aaaa-4bbb-8ccc-0123456789ab.jsonl");
  writeFileSync(
    file,
    [
      '{"type":"user","sessionId":"5eed1234-aaaa-4bbb-8ccc-0123456789ab","message":{"role":"user","content":"hi"},"uuid":"9999aaaa-bbbb-4ccc-8ddd-eeeeffff0000","cwd":"/Users/alexandra-longname/widget"}',
      '{"type":"user","sessionId":"5eed1234-aaaa-4bbb-8ccc-0123456789ab","cwd":"/Users/alice/widget","broken',
      '{"type":"user","toolUseID":"toolu_01ABCDEFGHIJKLMNOPQRSTUVWX","x": broken',
      "",
    ].join("\n"),
  );
  for (const cmd of ["inventory", "requests"])
    for (const format of ["table", "markdown", "html", "csv", "json"]) {
      const out = (await runCli([cmd, file, "--redact", "--format", format])).stdout.replaceAll("<wbr>", "");
      const what = `${cmd} --format ${format}`;
      assert.match(out, /toolu_01AB…/, what);
      assert.doesNotMatch(out, /5eed1234-|toolu_01ABC|……|alice|alexandra/, what);
      // No run of 9 or more of the id's hex characters beyond the redacted prefix.
      assert.doesNotMatch(out, /5eed1234[-0-9a-f]/, what);
    }
});
