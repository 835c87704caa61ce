import { realpathSync } from "node:fs";
import { UsageError } from "../errors.js";
import { isKnownZone } from "../render/zone.js";

/**
 * The zone times are shown in: `--tz` if given (unknown → usage error), else the `TZ` of the CLI's
 * env (POSIX's leading `:` dropped; an empty one is UTC, as POSIX has it), else the zone this Node
 * runs in. A TZ that Intl does not know is named on stderr and UTC used, rather than guessing.
 * `localShown` false: nothing will show a time in the local zone, so it is not looked up (UTC stands in).
 */
export function resolveZone(given: string | undefined, env: NodeJS.ProcessEnv, warn: (w: string) => void, localShown = true): string {
  if (given !== undefined) {
    const z = given.trim();
    if (z === "" || !isKnownZone(z))
      throw new UsageError(`--tz: unknown time zone "${given}"; give an IANA name such as Europe/Berlin or America/New_York, or UTC`);
    return z;
  }
  const fromEnv = env.TZ?.replace(/^:/, "").trim();
  if (fromEnv) {
    if (isKnownZone(fromEnv)) return fromEnv;
    warn(`TZ=${env.TZ} is not a time zone this Node knows; times are shown in UTC (--tz ZONE to choose)`);
    return "UTC";
  }
  // An empty TZ is UTC to POSIX and to the C library; ICU answers "Etc/Unknown" for it.
  if (fromEnv === "") return "UTC";
  // Asking Intl for the local zone loads ICU's zone data, a tenth of a small JSON run that shows no local time.
  if (!localShown) return "UTC";
  if (localIsUtc()) return "UTC";
  // ICU can answer a zone it cannot format in ("Etc/Unknown"): UTC then, not a crash at the first time shown.
  const local = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  return local && isKnownZone(local) ? local : "UTC";
}

/**
 * The answer ICU would give for a host whose /etc/localtime resolves into a zoneinfo tree at UTC, without
 * asking it: the first Intl.DateTimeFormat of a process loads ICU's locale and calendar data (~12 ms of a
 * table run that, in UTC, never formats a time through Intl). ICU reads the same link the same way
 * (realpath, the part after the first "/zoneinfo/", a "posix/" or "right/" prefix skipped); V8 names
 * Etc/UTC, Etc/GMT, UTC and GMT all "UTC". Any other host (a copied file, no such link, another zone, Windows)
 * is Intl's to answer.
 */
export function localIsUtc(localtime = "/etc/localtime"): boolean {
  let target: string;
  try {
    target = realpathSync(localtime);
  } catch {
    return false;
  }
  const at = target.indexOf("/zoneinfo/");
  if (at < 0) return false;
  return /^(?:(?:posix|right)\/)?(?:Etc\/)?(?:UTC|GMT)$/.test(target.slice(at + "/zoneinfo/".length));
}
