import { test } from "node:test";
import assert from "node:assert/strict";
import { isKnownZone, timeInZone, wallToMs, zoneOffsetMs } from "../../src/render/zone.js";
import { parseSince, parseUntil, parseWhen } from "../../src/commands/since.js";
import { suggest } from "../../src/commands/suggest.js";

test("timeInZone keeps UTC text byte for byte and shows other zones with their offset, same precision", () => {
  for (const t of ["2026-11-01T09:30:12.345Z", "2026-11-01T09:30Z", "not a time", "2026-11-01", ""]) assert.equal(timeInZone(t, "UTC"), t);
  assert.equal(timeInZone("2026-11-01T09:30:12.345Z", "Europe/Berlin"), "2026-11-01T10:30:12.345+01:00");
  assert.equal(timeInZone("2026-07-01T09:30:12Z", "Europe/Berlin"), "2026-07-01T11:30:12+02:00");
  assert.equal(timeInZone("2026-11-01T02:00:00.000Z", "America/New_York"), "2026-10-31T22:00:00.000-04:00");
  assert.equal(timeInZone("2026-11-01T09:30Z", "Asia/Kolkata"), "2026-11-01T15:00+05:30");
  assert.equal(timeInZone("2026-11-01", "Asia/Tokyo"), "2026-11-01", "a date alone has no instant to move");
});

test("zone offsets follow daylight saving, and wall times on either side of a change land right", () => {
  assert.equal(zoneOffsetMs("Europe/Berlin", Date.parse("2026-03-29T00:59:59Z")), 3_600_000);
  assert.equal(zoneOffsetMs("Europe/Berlin", Date.parse("2026-03-29T01:00:00Z")), 7_200_000);
  assert.equal(new Date(wallToMs("Europe/Berlin", Date.parse("2026-03-29T01:30:00Z"))).toISOString(), "2026-03-29T00:30:00.000Z");
  assert.equal(new Date(wallToMs("Europe/Berlin", Date.parse("2026-03-29T04:00:00Z"))).toISOString(), "2026-03-29T02:00:00.000Z");
  assert.ok(isKnownZone("UTC") && isKnownZone("Asia/Tokyo") && !isKnownZone("Mars/Olympus"));
});

test("parseWhen: one parser for --since and --until; zone-less dates are wall time in --tz; --until a date is that whole day", () => {
  const now = Date.parse("2026-11-30T00:00:00Z");
  assert.equal(parseSince("7d", now), "2026-11-23T00:00:00.000Z");
  assert.equal(parseSince("2026-11-01", now), "2026-11-01T00:00:00.000Z");
  assert.equal(parseSince("2026-11-01", now, "Asia/Tokyo"), "2026-10-31T15:00:00.000Z");
  assert.equal(parseSince("2026-11-01T09:30", now, "Europe/Berlin"), "2026-11-01T08:30:00.000Z");
  assert.equal(parseSince("2026-11-01T09:30Z", now, "Europe/Berlin"), "2026-11-01T09:30:00.000Z", "an explicit zone wins");
  assert.equal(parseUntil("2026-11-01", now), "2026-11-01T23:59:59.999Z");
  assert.equal(parseUntil("2026-11-01", now, "Asia/Tokyo"), "2026-11-01T14:59:59.999Z");
  assert.equal(parseUntil("2026-11-01T09:30Z", now), "2026-11-01T09:30:00.000Z");
  assert.equal(parseUntil("12h", now), "2026-11-29T12:00:00.000Z");
  assert.equal(parseWhen("--until", undefined), undefined);
  for (const bad of ["", "yesterday", "1", "2026-02-30", "-7d", "999999999d"]) {
    assert.throws(
      () => parseUntil(bad, now),
      (e: Error) => e.message.startsWith("--until: "),
      bad,
    );
  }
});

test("suggest: one edit per three letters, transpositions once, else a unique prefix", () => {
  const cmds = ["sessions", "requests", "instructions", "outputs", "report", "inventory"];
  assert.equal(suggest("sesions", cmds), "sessions");
  assert.equal(suggest("reqeusts", cmds), "requests");
  assert.equal(suggest("version", cmds), undefined);
  assert.equal(suggest("inv", cmds), "inventory");
  assert.equal(suggest("re", cmds), undefined, "two commands start with re");
  assert.equal(suggest("frmat", ["format", "json"]), "format");
});
