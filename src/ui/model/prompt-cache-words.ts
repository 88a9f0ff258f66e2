// What the model pane says about the CPU engine's prompt cache: whether the next message's start
// (system prompt, tool section, conversation so far) is already read, and how long reading took.
import type { PromptCacheState } from "../../store/prompt-cache-warmer.ts";

const count = (n: number) => Math.round(n).toLocaleString("en-US");

export function promptCacheWords(cache: PromptCacheState): string | null {
  switch (cache.state) {
    case "off":
      return null;
    case "warming": {
      const p = cache.progress;
      if (!p || p.totalTokens === 0) return "Reading the prompt's start (system prompt and tool section) ahead of your message…";
      return `Reading the prompt's start ahead of your message: ${count(Math.min(p.processedTokens, p.totalTokens))} of ${count(p.totalTokens)} tokens`;
    }
    case "ready":
      return `Prompt's start ready: ${count(cache.tokens)} tokens (system prompt, tool section, conversation) are in llama.cpp's prompt cache${cache.readTokens > 0 ? `, read in ${(cache.elapsedMs / 1000).toFixed(1)} s` : ""}. A message now reads only its own words.`;
    case "failed":
      return `The prompt's start could not be read ahead: ${cache.message}`;
  }
}
