import { sanitize } from "./sanitize.js";

/**
 * Evidence text for a CommonMark + GFM page, so that a renderer shows it as text and never as markup:
 * no HTML, no link, image or autolink, no emphasis, code span, strikethrough or math, no table cell
 * boundary, no line break. Control and invisible characters are shown as escapes first (`sanitize`),
 * then only the characters that could start markup there are escaped, so ordinary text and numbers
 * read as they are.
 */
export function mdInline(raw: string): string {
  const s = sanitize(raw);
  return s.replace(CANDIDATE, (c, i: number) => escapeAt(s, i, c));
}

/** Text that starts a block (a `> note`): also no list item, heading, quote or code block. */
export function mdBlock(raw: string): string {
  // A paragraph drops leading spaces anyway; four would make a code block (a tab shows as `\t`).
  return mdInline(raw.replace(/^ +/, ""))
    .replace(/^(?:#|[+-](?= |$)|-(?=-))/, "\\$&")
    .replace(/^(\d{1,9})([.)])(?= |$)/, "$1\\$2");
}

/** Heading text: a `#` after a space would end the heading (a closing sequence) and vanish. */
export function mdHeading(raw: string): string {
  return mdInline(raw).replace(/(^|\s)#/g, "$1\\#");
}

// Only characters that can start markup where they stand; escapeAt decides the rest. Times, numbers
// and most paths hold none, so they cost one regex scan.
const CANDIDATE =
  /[\\`*~|[\]<>_]|&(?=[#A-Za-z0-9])|!(?=\[)|\$(?![0-9])|@(?=[\p{L}\p{N}\p{M}])|:(?=\/\/)|(?<=mailto|xmpp):|\/(?=\/)|\.(?=[\p{L}\p{N}_-])/giu;
/** linkify-it's default top-level domains (its generic list, the country codes, punycode). */
const CC =
  "a[cdefgilmnoqrstuwxz]|b[abdefghijmnorstvwyz]|c[acdfghiklmnoruvwxyz]|d[ejkmoz]|e[cegrstu]|f[ijkmor]|g[abdefghilmnpqrstuwy]|h[kmnrtu]|i[delmnoqrst]|j[emop]|k[eghimnprwyz]|l[abcikrstuvy]|m[acdeghklmnopqrstuvwxyz]|n[acefgilopruz]|om|p[aefghklmnrstwy]|qa|r[eosuw]|s[abcdeghijklmnortuvxyz]|t[cdfghjklmnortvwz]|u[agksyz]|v[aceginu]|w[fs]|y[et]|z[amw]";
const TLD = new RegExp(
  `(?:biz|com|edu|gov|net|org|pro|web|xxx|aero|asia|coop|info|museum|name|shop|рф|xn--[a-z0-9-]+|${CC})(?![\\p{L}\\p{N}\\p{M}_-])`,
  "iuy",
);
const WORD = /[\p{L}\p{N}\p{M}]/u;
function isWord(c: string | undefined): boolean {
  if (c === undefined) return false;
  const k = c.charCodeAt(0);
  if (k < 0x80) return (k >= 48 && k <= 57) || ((k | 32) >= 97 && (k | 32) <= 122);
  return WORD.test(c);
}

function escapeAt(s: string, i: number, c: string): string {
  const next = s[i + 1];
  switch (c) {
    // Always markup somewhere: escapes, code spans, emphasis, strikethrough, table cells, links.
    case "\\":
    case "`":
    case "*":
    case "~":
    case "|":
    case "[":
    case "]":
      return `\\${c}`;
    case "<":
      return "&lt;";
    case ">":
      return "&gt;";
    case "&":
      // Only `&name;` / `&#…;` is an entity; a lone ampersand prints as itself.
      return next !== undefined && /[#A-Za-z0-9]/.test(next) ? "&amp;" : c;
    case "!":
      return next === "[" ? "\\!" : c;
    case "_":
      // `_` inside a word never opens or closes emphasis (snake_case, mcp__server__tool stay readable).
      return isWord(runEdge(s, i, -1)) && isWord(runEdge(s, i, 1)) ? c : "\\_";
    case "$":
      // GitHub math needs a `$` pair; a price (`$0.2038`) is not an opener that can close.
      return next !== undefined && /[0-9]/.test(next) ? c : "\\$";
    case "@":
      // GFM autolinks `user@host.tld` as mailto (and sites link @mentions).
      return isWord(next) ? "\\@" : c;
    case ":":
      // `http://…` autolinks in GFM and linkify; `mailto:`/`xmpp:` in GFM.
      if (next === "/" && s[i + 2] === "/") return "\\:";
      return /[op]/i.test(s[i - 1] ?? "") && /(?:mailto|xmpp)$/i.test(s.slice(Math.max(0, i - 6), i)) ? "\\:" : c;
    case "/":
      // linkify's scheme-less `//host` after a space or punctuation.
      // After an escaped `\:` (`http\://`) linkify sees no link.
      return next === "/" && s[i - 1] !== "/" && s[i - 1] !== ":" && !isWord(s[i - 1]) ? "\\/" : c;
    case ".":
      // GFM's `www.` autolink, and linkify's bare host names (`evil.com`, `README.md` in some renderers).
      if ((s[i - 1] === "w" || s[i - 1] === "W") && i >= 3 && /www$/i.test(s.slice(i - 3, i)) && !isWord(s[i - 4])) return "\\.";
      if (next === undefined || /[0-9\s]/.test(next)) return c;
      TLD.lastIndex = i + 1;
      return TLD.test(s) ? "\\." : c;
    default:
      return c;
  }
}

/** The character just outside the run of `s[i]` in direction `dir`. */
function runEdge(s: string, i: number, dir: -1 | 1): string | undefined {
  let j = i;
  while (s[j] === s[i]) j += dir;
  return s[j];
}
