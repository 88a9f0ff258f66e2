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
