import assert from "node:assert/strict";
import MarkdownIt from "markdown-it";

/**
 * Stricter than GitHub's input side: raw HTML passes through, bare URLs and e-mail addresses become
 * links, and so do bare host names (`evil.com`, as markdown-it up to 13 and many blog engines do).
 */
const md = new MarkdownIt({ html: true, linkify: true });
md.linkify.set({ fuzzyLink: true, fuzzyEmail: true });
export const toHtml = (markdown: string): string => md.render(markdown);

/** Elements the markdown renderer itself produces from the tool's own markup. */
const OWN = new Set([
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
  "p",
  "ul",
  "li",
  "strong",
  "em",
  "code",
  "blockquote",
]);
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)([^<>]*)>/g;

/** Every element with its attributes, in document order: the structure of the page. */
export function tags(html: string): string[] {
  return [...html.matchAll(TAG)].map((m) => `${m[1]}${m[2]}${m[3]}`);
}

/** Fails when the HTML holds anything but the tool's own elements (no link, image, script, handler, comment). */
export function assertOwnMarkupOnly(html: string, where: string): void {
  for (const bad of [/<a[\s>]/i, /<img/i, /<script/i, /<iframe/i, /<svg/i, /<!--/, /<\?/, /<!\[CDATA/i, /<!doctype/i])
    assert.doesNotMatch(html, bad, `${where}: ${bad}`);
  const found = [...html.matchAll(TAG)];
  // markdown-it writes text `<` as &lt;, so every `<` left must open one of the tags checked below.
  assert.equal((html.match(/</g) ?? []).length, found.length, `${where}: markup that is not an element`);
  for (const m of found) {
    assert.ok(OWN.has(m[2]!.toLowerCase()), `${where}: <${m[2]}> came from evidence`);
    const attrs = m[3]!.trim();
    assert.ok(attrs === "" || /^style="text-align:(?:left|right|center)"$/.test(attrs), `${where}: attribute ${attrs} on <${m[2]}>`);
    assert.doesNotMatch(attrs, /\b(?:on\w+|href|src)\s*=/i, where);
  }
}

/** The text a reader sees: tags removed, entities decoded, white space runs as one space. */
export function visibleText(html: string): string {
  const text = html
    .replace(TAG, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
  return norm(text);
}

export const norm = (s: string): string => s.replace(/\s+/g, " ").trim();
