import { test } from "node:test";
import { check } from "./run.js";
import { prop } from "./suite.js";

test("fuzz sessions: a config dir holding a mutated transcript gives valid JSON, no crash", () => check(prop("sessions-json")));
test("fuzz sessions: table, markdown and csv stay inert on hostile text", () => check(prop("sessions-human")));
test("fuzz sessions: --strict exits 1 exactly when a line is malformed", () => check(prop("sessions-strict")));
test("fuzz sessions: hostile text renders as text (no invisible chars, no markup, no formulas)", () => check(prop("sessions-escaping")));
