/** The output formats, apart from the renderers so that parsing the options does not load them. */
export type Format = "table" | "markdown" | "json" | "csv" | "html";
export const FORMATS = ["table", "markdown", "json", "csv", "html"] as const satisfies readonly Format[];
