/**
 * The character classes records/linear-text.ts scans evidence text with, for the renderers (which see only
 * the report layer): one definition of `\s` and of a line end, so render/svg-safe.ts's linear `url(…)`
 * search cannot drift from the regexes it replaced elsewhere.
 */
export { isLineEnd, isRegexSpace as isSpace } from "../records/linear-text.js";
