import { describe, expect, it } from "vitest";
import { formatConstraint, formatPrefill, formatSpeed } from "./engine-figures.ts";

describe("the engine's figures for a step", () => {
  it("prefilled vs reused, or why the whole prompt was prefilled", () => {
    expect(formatPrefill({ prefilledTokens: 38, reusedTokens: 2085 })).toBe("38 tokens prefilled · 2,085 reused from the step before (KV cache)");
    expect(formatPrefill({ prefilledTokens: 2029, reusedTokens: 0 })).toBe("2,029 tokens prefilled (whole prompt)");
    expect(formatPrefill({ prefilledTokens: 38, reusedTokens: 2085, kvState: "hybrid" })).toBe("38 tokens prefilled · 2,085 reused from the step before (KV cache and recurrent state continued)");
    expect(formatPrefill({ prefilledTokens: 2100, reusedTokens: 0, fullPrefillReason: "the step before was cut off at a length limit" })).toBe(
      "2,100 tokens prefilled (whole prompt: the step before was cut off at a length limit)",
    );
    expect(formatPrefill({ promptTokens: 10 })).toBeNull();
  });

  it("time to first token and prefill/decode speed, as WebLLM reported them", () => {
    expect(formatSpeed({ timeToFirstTokenMs: 840, prefillTokensPerSecond: 1204.4, decodeTokensPerSecond: 31.25 })).toBe("first token 840 ms · prefill 1,204 tok/s · decode 31.3 tok/s");
    expect(formatSpeed({ timeToFirstTokenMs: 2500 })).toBe("first token 2.50 s");
    expect(formatSpeed({})).toBeNull();
  });

  it("a constrained step: the choice and the grammar's cost, or why it was not applied", () => {
    expect(formatConstraint({ toolChoice: "required", structuralTag: {} }, { grammarInitMs: 120, grammarPerTokenMs: 0.42 })).toBe(
      "Constrained tool calls, required (at least one call): structural tag sent · grammar compiled in 120 ms · 0.42 ms per token.",
    );
    // How the engine sent it, where it says (WebLLM and vLLM-style servers: the tag; llama.cpp: a grammar).
    expect(formatConstraint({ toolChoice: "auto", structuralTag: {} }, { grammarInitMs: 120, constraintSentAs: "response_format" })).toBe(
      "Constrained tool calls, auto (text or calls): structural tag sent as response_format · grammar compiled in 120 ms.",
    );
    expect(formatConstraint({ toolChoice: "auto", structuralTag: {} }, { constraintSentAs: "grammar" })).toBe(
      "Constrained tool calls, auto (text or calls): structural tag sent as one GBNF grammar (llama.cpp's grammar field) · the engine reported no grammar timing.",
    );
    expect(formatConstraint({ toolChoice: { name: "calculator" }, unsupported: "the replay engine plays recorded output and cannot constrain it" }, {})).toBe(
      "Constrained tool calls, only calculator: not applied — the replay engine plays recorded output and cannot constrain it.",
    );
  });
});
