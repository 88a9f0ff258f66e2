import { describe, expect, it } from "vitest";
import { promptCacheWords } from "./prompt-cache-words.ts";

describe("what the model pane says about the prompt cache", () => {
  it("says nothing when no model runs on the CPU", () => {
    expect(promptCacheWords({ state: "off" })).toBeNull();
  });
  it("counts the tokens read so far while warming", () => {
    expect(promptCacheWords({ state: "warming", progress: { totalTokens: 1174, cachedTokens: 0, processedTokens: 512, elapsedMs: 9000 } })).toBe("Reading the prompt's start ahead of your message: 512 of 1,174 tokens");
    expect(promptCacheWords({ state: "warming" })).toMatch(/ahead of your message…$/);
  });
  it("says what is cached and what that saves", () => {
    expect(promptCacheWords({ state: "ready", tokens: 1174, readTokens: 1174, elapsedMs: 41_200 })).toBe(
      "Prompt's start ready: 1,174 tokens (system prompt, tool section, conversation) are in llama.cpp's prompt cache, read in 41.2 s. A message now reads only its own words.",
    );
    expect(promptCacheWords({ state: "ready", tokens: 300, readTokens: 0, elapsedMs: 20 })).not.toMatch(/read in/);
  });
});
