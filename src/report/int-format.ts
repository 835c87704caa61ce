// Made at first use: an Intl formatter costs milliseconds to build, and JSON output loads this module without formatting a cell.
let intl: Intl.NumberFormat | undefined;

/**
 * `n` exactly as `Intl.NumberFormat("en-US", { maximumFractionDigits: 0 }).format(n)` writes it (and, for an
 * integer, as `n.toLocaleString("en-US")` does): a safe integer is grouped by hand, three digits to a
 * comma, which costs a tenth of ICU's formatting; fractions, -0, NaN, the infinities and integers past
 * 2^53 go to Intl itself. test/report/int-format.test.ts compares the two over every integer to ±200,000,
 * every power of ten and its neighbours, and random integers up to 2^53.
 */
export function formatInt(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0))
    return (intl ??= new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 })).format(n);
  if (n > -1000 && n < 1000) return String(n);
  const digits = String(n < 0 ? -n : n);
  const lead = digits.length % 3 || 3;
  let s = n < 0 ? `-${digits.slice(0, lead)}` : digits.slice(0, lead);
  for (let i = lead; i < digits.length; i += 3) s += `,${digits.slice(i, i + 3)}`;
  return s;
}
