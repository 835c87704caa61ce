/**
 * Character tests for parsing evidence text in linear time. Some regexes over evidence took the square of
 * its length (a lazy or greedy run before an optional tail and `$`, tried again at every candidate):
 * minutes on one megabyte-long tool result or debug-log entry. Their replacements match what those
 * regexes matched, with `indexOf`/`lastIndexOf` and these tests.
 */

/** What `.` in a regex does not match. */
export const isLineEnd = (c: number): boolean => c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;

/** `\s` of a regex (and what `trim` removes): white space and line terminators. */
export const isRegexSpace = (c: number): boolean =>
  (c >= 0x09 && c <= 0x0d) ||
  c === 0x20 ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;

/** `[A-Za-z0-9]`. */
export const isAsciiAlnum = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

/** The first line terminator at or after `from`, or the length. */
export function lineEndFrom(s: string, from: number): number {
  for (let i = from; i < s.length; i++) if (isLineEnd(s.charCodeAt(i))) return i;
  return s.length;
}
