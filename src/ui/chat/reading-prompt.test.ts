import { describe, expect, it } from "vitest";
import { readingPromptWords } from "./reading-prompt.ts";

describe("the words shown while a model reads its prompt", () => {
  it("gives the prompt's size before the engine's first report", () => {
    expect(readingPromptWords({ stepId: "s", startedAt: 0, promptTokens: 1294 }).text).toBe("Reading the prompt (1,294 tokens)…");
    expect(readingPromptWords({ stepId: "s", startedAt: 0 }).text).toBe("Reading the prompt…");
  });

  it("counts what is read and estimates the rest from the rate of the tokens read so far (the cached ones cost nothing)", () => {
    const words = readingPromptWords({ stepId: "s", startedAt: 0, promptTokens: 1294, progress: { totalTokens: 1294, cachedTokens: 0, processedTokens: 412, elapsedMs: 20_000 } });
    // 412 tokens in 20 s: 20.6 tokens/s, 882 left: about 43 s.
    expect(words.text).toBe("Reading the prompt: 412 of 1,294 tokens · about 43 s left");
    expect(words.fraction).toBeCloseTo(412 / 1294);
  });

  it("says how much came from the prompt cache and leaves it out of the rate", () => {
    const words = readingPromptWords({ stepId: "s", startedAt: 0, progress: { totalTokens: 1300, cachedTokens: 1200, processedTokens: 1250, elapsedMs: 5_000 } });
    // 50 new tokens in 5 s: 10/s, 50 left: 5 s.
    expect(words.text).toBe("Reading the prompt: 1,250 of 1,300 tokens (1,200 from the cache) · about 5 s left");
  });

  it("gives no estimate when nothing new was read yet, and minutes for long waits", () => {
    expect(readingPromptWords({ stepId: "s", startedAt: 0, progress: { totalTokens: 100, cachedTokens: 0, processedTokens: 0, elapsedMs: 0 } }).text).toBe("Reading the prompt: 0 of 100 tokens");
    expect(readingPromptWords({ stepId: "s", startedAt: 0, progress: { totalTokens: 3000, cachedTokens: 0, processedTokens: 100, elapsedMs: 20_000 } }).text).toBe("Reading the prompt: 100 of 3,000 tokens · about 10 min left");
  });
});
