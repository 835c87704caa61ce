import { test } from "node:test";
import assert from "node:assert/strict";
import stringWidth from "string-width";
import { runCli, sample } from "../helpers.js";
import { SAMPLE_COMMANDS } from "../render/sample-commands.js";

const BASIC = sample("basic", "11111111-2222-4333-8444-555555555555.jsonl");
const widest = (s: string) => Math.max(...s.split("\n").map((l) => stringWidth(l)));

for (const width of [60, 80, 120]) {
  test(`every command on the samples fits a ${width}-column terminal: no line is longer`, async () => {
    for (const args of SAMPLE_COMMANDS) {
      const r = await runCli(args, { tty: { stdout: true, columns: width } });
      assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
      const long = r.stdout.split("\n").filter((l) => stringWidth(l) > width);
      assert.deepEqual(long, [], `${args.join(" ")} at ${width}`);
      // The box is still there: fitting changed its shape, not what it is.
      assert.ok(r.stdout.includes("┌") || !r.stdout.includes("│"), args.join(" "));
    }
  });
}

test("COLUMNS fits piped output too, and wins over the terminal's width", async () => {
  const piped = await runCli(["demo"], { env: { COLUMNS: "70" } });
  assert.equal(piped.code, 0, piped.stderr);
  assert.ok(widest(piped.stdout) <= 70);
  const tty = await runCli(["demo"], { tty: { stdout: true, columns: 200 }, env: { COLUMNS: "70" } });
  assert.equal(tty.stdout, piped.stdout);
});

test("a dropped column is named in one note under its table, with the way to see it", async () => {
  const r = await runCli(["requests", BASIC], { tty: { stdout: true, columns: 60 } });
  const notes = r.stdout.split("\n").filter((l) => /hidden to fit 60 columns/.test(l));
  assert.equal(notes.length, 1, r.stdout);
  // The note wraps under itself: read it as one line.
  assert.match(r.stdout.replace(/\n  /g, " "), /--wide shows every column, --columns picks \(e\.g\. --columns index,/);
  const header = r.stdout.split("\n").find((l) => l.startsWith("│") && l.includes("#"))!;
  assert.doesNotMatch(header, /\+attach/);
  assert.match(r.stdout.slice(r.stdout.indexOf("hidden to fit")), /\+attach/);
});

test("at a width where everything fits, the terminal gets exactly the piped table and no note", async () => {
  const piped = await runCli(["requests", BASIC]);
  const wide = await runCli(["requests", BASIC], { tty: { stdout: true, columns: 400 } });
  assert.equal(wide.stdout, piped.stdout);
  assert.doesNotMatch(wide.stdout, /hidden to fit/);
});

test("--wide on a narrow terminal prints what a pipe gets: every column, nothing cut", async () => {
  for (const args of [["requests", BASIC], ["demo"]]) {
    const piped = await runCli(args);
    const wide = await runCli([...args, "--wide"], { tty: { stdout: true, columns: 60 } });
    assert.equal(wide.code, 0, wide.stderr);
    assert.equal(wide.stdout, piped.stdout);
    assert.ok(widest(wide.stdout) > 60);
  }
});

test("--columns picks columns by key or header, in the order given, piped or not", async () => {
  const r = await runCli(["requests", BASIC, "--columns", "index,Delta,total input"]);
  assert.equal(r.code, 0, r.stderr);
  const header = r.stdout.split("\n").find((l) => l.startsWith("│") && l.includes("#"))!;
  assert.match(header, /^│ +# │ +delta │ +total input │$/);
  assert.match(r.stdout, /Parse health/);
  const tty = await runCli(["requests", BASIC, "--columns", "index,delta"], { tty: { stdout: true, columns: 60 } });
  assert.doesNotMatch(tty.stdout.split("hidden")[0]!, /cache read/);
});

test("--columns with a name no table has is a usage error that lists the keys", async () => {
  const r = await runCli(["requests", BASIC, "--columns", "index,bogus"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--columns: no column "bogus"; choose from index, time, .*deltaTokens/);
  assert.equal(r.stdout, "");
  for (const args of [
    ["--columns", "index", "--json"],
    ["--wide", "--format", "csv"],
    ["--columns", ","],
  ]) {
    const x = await runCli(["requests", BASIC, ...args]);
    assert.equal(x.code, 2, args.join(" "));
    assert.equal(x.stdout, "");
  }
});

test("key/value tables print as aligned lines that wrap under their value; a COLUMNS that is no width is named and ignored", async () => {
  const r = await runCli(["demo"], { tty: { stdout: true, columns: 80 } });
  const lines = r.stdout.split("\n");
  const i = lines.findIndex((l) => l.startsWith("session  ") || /^session +c0ffee00/.test(l));
  assert.ok(i > 0, r.stdout.slice(0, 800));
  const valueAt = lines[i]!.indexOf("c0ffee00");
  assert.ok(lines[i + 1]!.startsWith("transcript"));
  assert.equal(lines[i + 1]!.indexOf("/"), valueAt);
  assert.ok(lines[i + 2]!.startsWith(" ".repeat(valueAt)) && lines[i + 2]!.trim().length > 0, "a long path continues under itself");
  const bad = await runCli(["requests", BASIC], { env: { COLUMNS: "wide" } });
  assert.equal(bad.code, 0);
  assert.match(bad.stderr, /COLUMNS="wide" is not a width; ignored/);
  assert.equal(bad.stdout, (await runCli(["requests", BASIC])).stdout);
});
