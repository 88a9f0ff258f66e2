// Reads the engine choice from the page address: ?engine=replay&transcript=<URL or built-in name>.

export interface EngineUrlChoice {
  engine: "replay" | "webllm";
  /** A built-in transcript name or a URL; only for the replay engine. */
  transcript?: string;
  /** A WebLLM model id (?engine=webllm&model=…). */
  model?: string;
}

export function readEngineChoiceFromUrl(search: string): EngineUrlChoice | null {
  const params = new URLSearchParams(search);
  const engine = params.get("engine")?.trim().toLowerCase();
  const transcript = params.get("transcript")?.trim() || undefined;
  if (engine === "replay" || (!engine && transcript)) {
    return transcript ? { engine: "replay", transcript } : { engine: "replay" };
  }
  if (engine === "webllm") {
    const model = params.get("model")?.trim() || undefined;
    return model ? { engine: "webllm", model } : { engine: "webllm" };
  }
  return null;
}

/**
 * Whether a transcript source would be fetched from another origin than the page's. Built-in
 * names and paths on this site are not; an absolute or protocol-relative URL elsewhere is. A
 * transcript decides what the "model" writes — tool calls the lab will run included — so one
 * from elsewhere, arriving through a link, is loaded only after the person agrees.
 */
export function isCrossOriginTranscript(source: string, pageOrigin: string): boolean {
  const trimmed = source.trim();
  if (!/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(trimmed)) return false;
  try {
    return new URL(trimmed, pageOrigin).origin !== pageOrigin;
  } catch {
    return true;
  }
}

/** The page address without its transcript parameter (the engine choice stays). */
export function withoutTranscript(search: string): string {
  const params = new URLSearchParams(search);
  params.delete("transcript");
  const rest = params.toString();
  return rest ? `?${rest}` : "";
}
