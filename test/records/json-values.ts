import fc from "fast-check";

/**
 * Random JSON objects for the fast-path-against-JSON.parse property tests: nested arrays and objects,
 * numbers, booleans and null, strings from `text`, keys that matter to the parsers (`text`, `content`,
 * `type`, `__proto__`) beside short random ones.
 */
export function jsonObjects(text: fc.Arbitrary<string>): fc.Arbitrary<Record<string, unknown>> {
  const value = fc.letrec((tie) => ({
    v: fc.oneof(
      { depthSize: "small" },
      text,
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
      tie("arr"),
      tie("obj"),
    ),
    arr: fc.array(tie("v"), { maxLength: 4 }),
    obj: fc.dictionary(fc.oneof(fc.constantFrom("text", "content", "type", "__proto__"), fc.string({ maxLength: 5 })), tie("v"), {
      maxKeys: 4,
    }),
  }));
  return value.obj as fc.Arbitrary<Record<string, unknown>>;
}
