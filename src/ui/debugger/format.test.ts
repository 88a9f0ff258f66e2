import { describe, expect, it } from "vitest";
import { describeCutOff, formatBudget, formatDuration, formatSettings, formatTokens, stepLabel, summarizeParseEvent, toDisplayJson } from "./format.ts";

describe("debugger formatting", () => {
  it("writes durations in the unit that reads best", () => {
    expect(formatDuration(undefined)).toBe("—");
    expect(formatDuration(12.4)).toBe("12 ms");
    expect(formatDuration(1234)).toBe("1.23 s");
    expect(formatDuration(12_345)).toBe("12.3 s");
    expect(formatDuration(125_000)).toBe("2 min 5 s");
  });

  it("says which token counts are known", () => {
    expect(formatTokens({})).toBe("tokens —");
    expect(formatTokens({ promptTokens: 120, completionTokens: 30 })).toBe("120 in · 30 out");
    expect(formatTokens({ completionTokens: 7 })).toBe("? in · 7 out");
    // The lab's count fills in for an engine that reported none, and says whose it is.
    expect(formatTokens({}, { promptTokens: 412, completionTokens: 18 })).toBe("lab: 412 in · 18 out");
    expect(formatTokens({}, { promptTokens: 412 })).toBe("lab: 412 in · ? out");
    expect(formatTokens({}, {})).toBe("tokens —");
    // The engine's own usage wins over the lab's count.
    expect(formatTokens({ promptTokens: 400, completionTokens: 20 }, { promptTokens: 412, completionTokens: 18 })).toBe("400 in · 20 out");
  });

  it("labels top-level steps by turn and nested ones as sub-agent steps", () => {
    expect(stepLabel({ depth: 0, index: 2, turn: 3 })).toBe("Turn 3 · step 2");
    expect(stepLabel({ depth: 1, index: 1, turn: 3 })).toBe("Sub-agent step 1");
  });

  it("summarizes parse events on one line, repairs as before → after", () => {
    const span = { start: 0, end: 1 };
    expect(summarizeParseEvent({ type: "text", text: "a\nb", span })).toBe('"a\\nb"');
    expect(summarizeParseEvent({ type: "repair", kind: "single-quotes", message: "", before: "'a'", after: '"a"', span })).toBe(
      "single-quotes: 'a' → \"a\"",
    );
    expect(summarizeParseEvent({ type: "parse-error", kind: "invalid-json", message: "bad", raw: "{", span })).toBe("invalid-json: bad");
    expect(summarizeParseEvent({ type: "text", text: "x".repeat(200), span })).toBe(`"${"x".repeat(80)}…"`);
  });

  it("shows any tool result, and says when one cannot be shown as JSON", () => {
    expect(toDisplayJson({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(toDisplayJson(undefined)).toBe("undefined");
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(toDisplayJson(cyclic)).toMatch(/^\(not displayable as JSON: /);
  });
});

describe("describeCutOff", () => {
  it("names the limit that cut a step, with its max tokens", () => {
    expect(describeCutOff({ cutOff: "max-tokens", settings: { maxTokens: 4096 } })).toBe("cut off at max tokens (4,096)");
    expect(describeCutOff({ cutOff: "context-window", settings: {} })).toBe("context window full");
    expect(describeCutOff({ settings: {} })).toMatch(/did not say which/);
  });
});

describe("a step's recorded settings", () => {
  it("lists every sampling value sent, and the recorded cap or that none was recorded", () => {
    expect(formatSettings({ maxTokens: 4096, temperature: 0.6, topP: 0.95, repetitionPenalty: 1, presencePenalty: 0, frequencyPenalty: 0, seed: 7, stop: ["x"] })).toBe(
      "max tokens 4096 · temperature 0.6 · top_p 0.95 · repetition penalty 1 · presence penalty 0 · frequency penalty 0 · seed 7",
    );
    expect(formatBudget({ kind: "capped", requested: 4096, maxTokens: 2796, promptTokens: 1300, contextWindow: 4096 })).toBe(
      "max tokens capped to 2,796 (of 4,096 asked): prompt 1,300 of a 4,096-token context window",
    );
    expect(formatBudget(undefined)).toMatch(/not recorded/);
  });
});
