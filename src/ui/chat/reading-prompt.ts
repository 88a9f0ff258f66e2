// The words the chat shows while a model reads its prompt (before its first token): how much it
// has read, from the engine's own reports, and about how long is left at the rate it has read so far.
import type { ReadingPrompt } from "../../store/derive-chat.ts";

const count = (n: number) => Math.round(n).toLocaleString("en-US");

function duration(seconds: number): string {
  if (seconds < 1) return "under a second";
  if (seconds < 90) return `${Math.round(seconds)} s`;
  return `${Math.round(seconds / 60)} min`;
}

export interface ReadingPromptWords {
  text: string;
  /** 0–1 where the engine reports how far it has read; absent before its first report. */
  fraction?: number;
}

export function readingPromptWords(reading: ReadingPrompt): ReadingPromptWords {
  const { progress } = reading;
  if (!progress || progress.totalTokens <= 0) {
    return { text: reading.promptTokens !== undefined ? `Reading the prompt (${count(reading.promptTokens)} tokens)…` : "Reading the prompt…" };
  }
  const { totalTokens, cachedTokens, processedTokens, elapsedMs } = progress;
  const read = Math.min(processedTokens, totalTokens);
  const fromCache = cachedTokens > 0 ? ` (${count(cachedTokens)} from the cache)` : "";
  const newlyRead = read - cachedTokens;
  const rate = elapsedMs > 0 && newlyRead > 0 ? newlyRead / (elapsedMs / 1000) : undefined;
  const left = rate !== undefined && read < totalTokens ? ` · about ${duration((totalTokens - read) / rate)} left` : "";
  return { text: `Reading the prompt: ${count(read)} of ${count(totalTokens)} tokens${fromCache}${left}`, fraction: read / totalTokens };
}
