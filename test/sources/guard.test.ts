import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exitCodeOf, messageOf, UnreadableError, UsageError } from "../../src/errors.js";
import {
  admitDiscovered,
  admitDiscoveredDir,
  checkNamedFile,
  onAccess,
  openFailure,
  openEvidence,
  plainName,
  takeSkipped,
} from "../../src/sources/guard.js";

function tree(): { dir: string; root: string; outside: string } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "ccf-guard-")));
  const root = join(dir, "cfg");
  const outside = join(dir, "outside");
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(join(outside, "secret"), "s");
  writeFileSync(join(root, "ok.txt"), "ok");
  return { dir, root, outside };
}

test("openEvidence: a FIFO (as if swapped in after the stat) is refused at once, not waited on", () => {
  const { dir } = tree();
  try {
    const fifo = join(dir, "p.fifo");
    execFileSync("mkfifo", [fifo]);
    const t0 = Date.now();
    assert.throws(
      () => openEvidence(fifo),
      (e: unknown) => e instanceof UsageError && /is a FIFO/.test(e.message),
    );
    assert.throws(
      () => openEvidence(dir),
      (e: unknown) => e instanceof UsageError && /directory/.test(e.message),
    );
    assert.throws(
      () => openEvidence(join(dir, "nope")),
      (e: unknown) => e instanceof UsageError && /no such file/.test(e.message),
    );
    assert.ok(Date.now() - t0 < 2000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("checkNamedFile: FIFO, device and directory are usage errors naming the path", () => {
  const { dir } = tree();
  try {
    const fifo = join(dir, "p.fifo");
    execFileSync("mkfifo", [fifo]);
    for (const [p, what] of [
      [fifo, /FIFO/],
      ["/dev/zero", /device/],
      [dir, /directory/],
    ] as const) {
      assert.throws(
        () => checkNamedFile(p, "transcript"),
        (e: unknown) => e instanceof UsageError && what.test(e.message) && e.message.includes(p),
      );
    }
    assert.doesNotThrow(() => checkNamedFile(join(dir, "cfg", "ok.txt"), "transcript"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("admitDiscovered: links out, loops, dangling links and FIFOs are skipped and listed; nothing past the link is stat'ed", () => {
  const { dir, root, outside } = tree();
  try {
    symlinkSync(join(outside, "secret"), join(root, "out.txt"));
    symlinkSync(join(root, "self"), join(root, "self"));
    symlinkSync(join(root, "gone"), join(root, "dangling"));
    symlinkSync(join(root, "ok.txt"), join(root, "in.txt"));
    symlinkSync(outside, join(root, "outdir"));
    execFileSync("mkfifo", [join(root, "f.fifo")]);
    takeSkipped();
    const seen: string[] = [];
    onAccess((op, p) => {
      if (op !== "realpath") seen.push(p);
    });
    try {
      assert.equal(admitDiscovered(join(root, "out.txt"), root), undefined);
      assert.equal(admitDiscovered(join(root, "self"), root), undefined);
      assert.equal(admitDiscovered(join(root, "dangling"), root), undefined);
      assert.equal(admitDiscovered(join(root, "f.fifo"), root), undefined);
      assert.equal(admitDiscovered(join(root, "missing"), root), undefined);
      assert.equal(admitDiscoveredDir(join(root, "outdir"), root), undefined);
      assert.equal(admitDiscovered(join(root, "in.txt"), root), join(root, "ok.txt"));
    } finally {
      onAccess(null);
    }
    assert.ok(!seen.some((p) => p.startsWith(outside)), seen.join(", "));
    const skipped = takeSkipped().map((s) => `${s.path.slice(root.length + 1)}: ${s.reason}`);
    assert.deepEqual(skipped, [
      `out.txt: real path leaves ${root}`,
      "self: cannot resolve (dangling symlink or loop)",
      "dangling: cannot resolve (dangling symlink or loop)",
      "f.fifo: not a regular file (a FIFO)",
      `outdir: real path leaves ${root}`,
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("plainName: a session id from evidence is one path component", () => {
  for (const ok of ["c0ffee00-1111-4222-8333-444444444444", "agent-a1", "s1"]) assert.equal(plainName(ok), true, ok);
  for (const bad of ["", "..", "../x", "a/b", "a\\b", "/etc", ".hidden", "a..b", "a\u0000"]) assert.equal(plainName(bad), false, bad);
});

test("openFailure: a path that names nothing is a usage error; a file that is there but cannot be read a runtime one", () => {
  const sys = (code: string, text: string) => Object.assign(new Error(`${code}: ${text}, open '/x'`), { code, syscall: "open" });
  const missing = openFailure("/x", sys("ENOENT", "no such file or directory"));
  assert.ok(missing instanceof UsageError && missing.message === "no such file: /x");
  assert.ok(openFailure("/x", sys("ENOTDIR", "not a directory")) instanceof UsageError);
  assert.ok(openFailure("/x", sys("ELOOP", "too many symbolic links encountered")) instanceof UsageError);
  for (const code of ["EACCES", "EPERM", "EIO", "EMFILE"]) {
    const e = openFailure("/x", sys(code, "whatever"));
    assert.ok(e instanceof UnreadableError, code);
    assert.equal(exitCodeOf(e), 1, code);
    assert.equal(e.path, "/x");
    assert.equal(e.message, `cannot read /x: ${code}: whatever, open '/x'`);
  }
  // A system error that reaches the top unwrapped is still one line, exit 1, never "internal error" with a stack.
  const raw = sys("EIO", "i/o error");
  assert.equal(messageOf(raw), "EIO: i/o error, open '/x'");
  assert.equal(exitCodeOf(raw), 1);
  assert.match(messageOf(new TypeError("bug")), /^internal error: TypeError: bug/);
});
