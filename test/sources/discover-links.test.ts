import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  configDirHolding,
  findSession,
  findSubagents,
  listAllSessions,
  missingConfigDirs,
  sessionRoots,
} from "../../src/sources/discover.js";
import { CANNOT_LIST, setFollowLinks, takeSkipped } from "../../src/sources/guard.js";
import { resolveSavedPath } from "../../src/sources/saved-files.js";
import { skippedWarning } from "../../src/report/health-table.js";

const S1 = "5e551000-0000-4000-8000-000000000001";
const S2 = "5e552000-0000-4000-8000-000000000002";
const line = (id: string) => `${JSON.stringify({ type: "user", sessionId: id, timestamp: "2026-11-01T10:00:00Z" })}\n`;

/** Runs `fn` in a fresh temp dir; `follow`: as with --follow-links (turned off again after). */
function withTmp(fn: (d: string) => void | Promise<void>, follow = false): () => Promise<void> {
  return async () => {
    const d = realpathSync(mkdtempSync(join(tmpdir(), "ccf-links-")));
    takeSkipped();
    setFollowLinks(follow);
    try {
      await fn(d);
    } finally {
      setFollowLinks(false);
      takeSkipped();
      rmSync(d, { recursive: true, force: true });
    }
  };
}

/** What a link of the config dir's tree leading out of it is skipped with, --follow-links off. */
const NOT_FOLLOWED = "cannot list folder: a symlink to";
const notFollowed = (real: string) => `${NOT_FOLLOWED} ${real}, outside the config dir; not followed (--follow-links reads it)`;

const names = (skipped: Array<{ path: string; reason: string }>) =>
  skipped.map((s) => `${s.path.slice(s.path.lastIndexOf("/") + 1)}: ${s.reason.replace(/ \/.*$/, "")}`);

test(
  "sessionRoots without --follow-links: the config dir alone, whatever projects/ or the project folder link to",
  withTmp((d) => {
    const cfg = join(d, "cfg");
    mkdirSync(join(cfg, "projects", "-plain"), { recursive: true });
    mkdirSync(join(d, "disk", "-far"), { recursive: true });
    symlinkSync(join(d, "disk", "-far"), join(cfg, "projects", "-far"));
    assert.deepEqual(sessionRoots(join(cfg, "projects", "-plain")), [cfg]);
    assert.deepEqual(sessionRoots(join(cfg, "projects", "-far")), [cfg]);
    const cfg2 = join(d, "cfg2");
    mkdirSync(join(d, "disk2", "-p"), { recursive: true });
    mkdirSync(cfg2);
    symlinkSync(join(d, "disk2"), join(cfg2, "projects"));
    assert.deepEqual(sessionRoots(join(cfg2, "projects", "-p")), [cfg2]);
    assert.deepEqual(sessionRoots(join(d, "loose")), [join(d, "loose")]);
  }),
);

test(
  "sessionRoots with --follow-links: the config dir alone when nothing is linked out of it; plus projects/ and the project folder where they are",
  withTmp((d) => {
    const cfg = join(d, "cfg");
    mkdirSync(join(cfg, "projects", "-plain"), { recursive: true });
    mkdirSync(join(d, "disk", "-far"), { recursive: true });
    mkdirSync(join(cfg, "stash", "-near"), { recursive: true });
    symlinkSync(join(cfg, "stash", "-near"), join(cfg, "projects", "-near"));
    symlinkSync(join(d, "disk", "-far"), join(cfg, "projects", "-far"));
    assert.deepEqual(sessionRoots(join(cfg, "projects", "-plain")), [cfg]);
    assert.deepEqual(sessionRoots(join(cfg, "projects", "-near")), [cfg], "a link inside the config dir adds nothing");
    assert.deepEqual(sessionRoots(join(cfg, "projects", "-far")), [cfg, join(cfg, "projects", "-far")]);
    // projects/ itself on another disk: its folders lie in it, so it is the one root added.
    const cfg2 = join(d, "cfg2");
    mkdirSync(join(d, "disk2", "-p"), { recursive: true });
    mkdirSync(cfg2);
    symlinkSync(join(d, "disk2"), join(cfg2, "projects"));
    assert.deepEqual(sessionRoots(join(cfg2, "projects", "-p")), [cfg2, join(cfg2, "projects")]);
    // A transcript outside any config dir: its own folder, as before.
    assert.deepEqual(sessionRoots(join(d, "loose")), [join(d, "loose")]);
  }, true),
);

/** A config dir whose project folder `-p` links to another disk, holding session S1 with a subagent, a saved file and a link out of each. */
function farProject(d: string): { cfg: string; far: string; proj: string } {
  const cfg = join(d, "cfg");
  const far = join(d, "disk", "proj");
  mkdirSync(join(cfg, "projects"), { recursive: true });
  mkdirSync(join(far, S1, "subagents"), { recursive: true });
  mkdirSync(join(far, S1, "tool-results"), { recursive: true });
  mkdirSync(join(d, "outside"));
  writeFileSync(join(far, `${S1}.jsonl`), line(S1));
  writeFileSync(join(far, S1, "subagents", "agent-a1.jsonl"), line(S1));
  writeFileSync(join(far, S1, "tool-results", "toolu_01A.txt"), "x");
  writeFileSync(join(d, "outside", "x.jsonl"), line(S1));
  symlinkSync(join(d, "outside", "x.jsonl"), join(far, S1, "subagents", "agent-evil.jsonl"));
  symlinkSync(join(d, "outside", "x.jsonl"), join(far, S1, "tool-results", "toolu_01B.txt"));
  symlinkSync(far, join(cfg, "projects", "-p"));
  return { cfg, far, proj: join(cfg, "projects", "-p") };
}

test(
  "without --follow-links a project folder linked out of the config dir is skipped, naming its target and the flag; a lookup names it as not searched",
  withTmp(async (d) => {
    const { cfg, far, proj } = farProject(d);
    mkdirSync(join(cfg, "projects", "-home"));
    writeFileSync(join(cfg, "projects", "-home", `${S2}.jsonl`), line(S2));
    assert.deepEqual(
      listAllSessions([cfg]).map((s) => s.id),
      [S2],
    );
    assert.deepEqual(takeSkipped(), [{ path: proj, reason: notFollowed(far) }]);
    for (const id of [S1, S1.slice(0, 8)])
      assert.throws(
        () => findSession(id, [cfg]),
        (e: Error) => e.message.includes(`not searched ${proj}: ${notFollowed(far)}`),
        id,
      );
    // Its files are not the session's tree either: a saved file named below it is outside.
    const tr = join(proj, S1, "tool-results");
    assert.equal(
      resolveSavedPath("~/.claude/projects/-p/x/tool-results/toolu_01A.txt", tr).suspicious,
      "the tool-results/ folder links outside the session folder",
    );
  }),
);

test(
  "with --follow-links a project folder linked to another disk is listed, and its session's subagents/ and tool-results/ are followed inside it",
  withTmp(async (d) => {
    const { cfg, proj } = farProject(d);

    const all = listAllSessions([cfg]);
    assert.deepEqual(
      all.map((s) => s.path),
      [join(proj, `${S1}.jsonl`)],
    );
    assert.equal(findSession(S1, [cfg]).path, join(proj, `${S1}.jsonl`));
    assert.equal(findSession(S1.slice(0, 8), [cfg]).path, join(proj, `${S1}.jsonl`));
    const subs = await findSubagents(join(proj, `${S1}.jsonl`), S1);
    assert.deepEqual(
      subs.map((s) => s.agentId),
      ["a1"],
    );
    assert.deepEqual(names(takeSkipped()), ["agent-evil.jsonl: real path leaves"]);
    const tr = join(proj, S1, "tool-results");
    assert.deepEqual(resolveSavedPath("~/.claude/projects/-p/x/tool-results/toolu_01A.txt", tr), {
      path: join(tr, "toolu_01A.txt"),
      exists: true,
      suspicious: null,
    });
    assert.equal(
      resolveSavedPath("~/.claude/projects/-p/x/tool-results/toolu_01B.txt", tr).suspicious,
      "the saved file links outside tool-results/",
    );
  }, true),
);

test(
  "below a project folder a link is followed while it stays in the config dir, and skipped and said when it leaves",
  withTmp(async (d) => {
    const cfg = join(d, "cfg");
    const proj = join(cfg, "projects", "-p");
    mkdirSync(join(proj, S1), { recursive: true });
    mkdirSync(join(cfg, "moved", "subs"), { recursive: true });
    mkdirSync(join(cfg, "moved", "tr"), { recursive: true });
    mkdirSync(join(d, "outside"));
    writeFileSync(join(cfg, "moved", `${S1}.jsonl`), line(S1));
    writeFileSync(join(cfg, "moved", "subs", "agent-a1.jsonl"), line(S1));
    writeFileSync(join(cfg, "moved", "tr", "toolu_01A.txt"), "x");
    writeFileSync(join(d, "outside", `${S2}.jsonl`), line(S2));
    symlinkSync(join(cfg, "moved", `${S1}.jsonl`), join(proj, `${S1}.jsonl`));
    symlinkSync(join(cfg, "moved", "subs"), join(proj, S1, "subagents"));
    symlinkSync(join(cfg, "moved", "tr"), join(proj, S1, "tool-results"));
    symlinkSync(join(d, "outside", `${S2}.jsonl`), join(proj, `${S2}.jsonl`));
    // A session folder whose subagents/ link leads nowhere: said, not silently empty.
    mkdirSync(join(proj, "5e553000-0000-4000-8000-000000000003"));
    symlinkSync(join(d, "gone"), join(proj, "5e553000-0000-4000-8000-000000000003", "subagents"));

    assert.deepEqual(
      listAllSessions([cfg]).map((s) => s.id),
      [S1],
    );
    assert.deepEqual(
      (await findSubagents(join(proj, `${S1}.jsonl`), S1)).map((s) => s.agentId),
      ["a1"],
    );
    assert.deepEqual(names(takeSkipped()), [`${S2}.jsonl: real path leaves`, "subagents: cannot resolve (dangling symlink or loop)"]);
    // tool-results/ moved within the config dir is the session's tree, as subagents/ is.
    const tr = join(proj, S1, "tool-results");
    assert.equal(resolveSavedPath("/x/tool-results/toolu_01A.txt", tr).exists, true);
  }),
);

for (const follow of [false, true])
  test(
    `links among the roots${follow ? " with --follow-links" : ""}: a loop, a link back up to projects/ or the config dir, a dangling folder and a second name are each said or listed once`,
    withTmp((d) => {
      const cfg = join(d, "cfg");
      const projects = join(cfg, "projects");
      mkdirSync(join(projects, "-real"), { recursive: true });
      writeFileSync(join(projects, "-real", `${S1}.jsonl`), line(S1));
      symlinkSync(join(projects, "-loop"), join(projects, "-loop"));
      symlinkSync(".", join(projects, "-dot"));
      symlinkSync("..", join(projects, "-up"));
      symlinkSync(join(d, "unmounted"), join(projects, "-gone"));
      symlinkSync("-real", join(projects, "-second"));
      writeFileSync(join(d, "file"), "x");
      symlinkSync(join(d, "file"), join(projects, "-file"));
      writeFileSync(join(cfg, "file"), "x");
      symlinkSync(join(cfg, "file"), join(projects, "-file-in"));
      writeFileSync(join(projects, ".DS_Store"), "x");

      assert.deepEqual(
        listAllSessions([cfg]).map((s) => s.path),
        [join(projects, "-real", `${S1}.jsonl`)],
      );
      const skipped = takeSkipped();
      assert.ok(skipped.every((s) => s.reason.startsWith(CANNOT_LIST)));
      assert.deepEqual(names(skipped), [
        "-dot: cannot list folder: a symlink to",
        // A file outside the config dir is not even looked at without the flag.
        follow ? "-file: cannot list folder: a symlink to a file, not a folder" : "-file: cannot list folder: a symlink to",
        "-file-in: cannot list folder: a symlink to a file, not a folder",
        "-gone: cannot list folder: a symlink that cannot be resolved (dangling, or a loop)",
        "-loop: cannot list folder: a symlink that cannot be resolved (dangling, or a loop)",
        "-up: cannot list folder: a symlink to",
      ]);
      if (!follow) assert.equal(skipped.find((s) => s.path.endsWith("-file"))?.reason, notFollowed(join(d, "file")));
      assert.match(skipped.find((s) => s.path.endsWith("-up"))!.reason, /holds projects\/ itself \(a loop\)$/);
      // A lookup that finds nothing names the folders it could not search.
      assert.throws(
        () => findSession(S2, [cfg]),
        (e: Error) => /not searched .*-gone: cannot list folder/.test(e.message) && /not searched .*-loop/.test(e.message),
      );
    }, follow),
  );

test(
  "a config dir whose projects/ is a dangling link, and a default ~/.claude that leads nowhere, are said",
  withTmp((d) => {
    const cfg = join(d, "cfg");
    mkdirSync(cfg);
    symlinkSync(join(d, "unmounted"), join(cfg, "projects"));
    assert.deepEqual(listAllSessions([cfg]), []);
    assert.deepEqual(names(takeSkipped()), ["projects: cannot list folder: a symlink that cannot be resolved (dangling, or a loop)"]);
    const home = join(d, "home");
    mkdirSync(home);
    symlinkSync(join(d, "dotfiles-not-cloned"), join(home, ".claude"));
    const dirs = [join(home, ".config", "claude"), join(home, ".claude")];
    assert.deepEqual(missingConfigDirs(dirs, "default"), [
      `${join(home, ".claude")}: a symlink that leads to no directory (dangling, a loop, or a file); nothing was listed there`,
    ]);
  }),
);

test(
  "without --follow-links a config dir that is itself a link is followed, and links inside it too; its projects/ linked out of it is skipped and said",
  withTmp((d) => {
    const dotfiles = join(d, "dotfiles", "claude");
    mkdirSync(join(dotfiles, "projects", "-p"), { recursive: true });
    mkdirSync(join(dotfiles, "stash", "-near"), { recursive: true });
    writeFileSync(join(dotfiles, "projects", "-p", `${S1}.jsonl`), line(S1));
    writeFileSync(join(dotfiles, "stash", "-near", `${S2}.jsonl`), line(S2));
    symlinkSync(join(dotfiles, "stash", "-near"), join(dotfiles, "projects", "-near"));
    const cfg = join(d, "home", ".claude");
    mkdirSync(join(d, "home"));
    symlinkSync(dotfiles, cfg);
    assert.deepEqual(
      listAllSessions([cfg]).map((s) => s.path),
      [join(cfg, "projects", "-near", `${S2}.jsonl`), join(cfg, "projects", "-p", `${S1}.jsonl`)],
    );
    assert.deepEqual(takeSkipped(), []);
    assert.equal(findSession(S2, [cfg]).path, join(cfg, "projects", "-near", `${S2}.jsonl`));

    const cfg2 = join(d, "cfg2");
    mkdirSync(join(d, "disk", "-p"), { recursive: true });
    writeFileSync(join(d, "disk", "-p", `${S1}.jsonl`), line(S1));
    mkdirSync(cfg2);
    symlinkSync(join(d, "disk"), join(cfg2, "projects"));
    assert.deepEqual(listAllSessions([cfg2]), []);
    assert.deepEqual(takeSkipped(), [{ path: join(cfg2, "projects"), reason: notFollowed(join(d, "disk")) }]);
  }),
);

test(
  "many links skipped: one stderr line lists the first five and counts the rest",
  withTmp((d) => {
    const projects = join(d, "cfg", "projects");
    mkdirSync(projects, { recursive: true });
    for (let i = 0; i < 8; i++) symlinkSync(join(d, `gone${i}`), join(projects, `-gone${i}`));
    listAllSessions([join(d, "cfg")]);
    const skipped = takeSkipped();
    assert.equal(skipped.length, 8);
    const w = skippedWarning(skipped);
    assert.match(w, /^skipped 8 folders that could not be listed, not read: /);
    assert.match(w, /-gone4 \(cannot list folder/);
    assert.doesNotMatch(w, /-gone5 /);
    assert.match(w, /… and 3 more \(see health\.skipped in --json\)$/);
  }),
);

test(
  "write guard: the folders a config dir links to are its tree; a loop link does not make everything protected",
  withTmp((d) => {
    const cfg = join(d, "cfg");
    const disk = join(d, "disk");
    const far = join(d, "far");
    mkdirSync(cfg);
    mkdirSync(join(disk, "-inside"), { recursive: true });
    mkdirSync(far);
    symlinkSync(disk, join(cfg, "projects"));
    symlinkSync(far, join(disk, "-far"));
    symlinkSync("/", join(disk, "-root"));
    symlinkSync(join(d, "gone"), join(disk, "-gone"));
    assert.equal(configDirHolding(join(cfg, "x.json"), [cfg]), cfg);
    assert.equal(configDirHolding(join(disk, "-inside", "x.json"), [cfg]), `${cfg} (${join(cfg, "projects")} is a symlink to ${disk})`);
    assert.equal(configDirHolding(join(far, "sub", "x.json"), [cfg]), `${cfg} (${join(cfg, "projects", "-far")} is a symlink to ${far})`);
    assert.equal(configDirHolding(join(d, "elsewhere", "x.json"), [cfg]), undefined, "a link to / is a loop, not a root");
    assert.equal(configDirHolding(join(d, "gone", "x.json"), [cfg]), undefined);
  }),
);
