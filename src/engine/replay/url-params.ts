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
 * Whether a transcript source would be fetched from another origin than the page's. A
 * transcript decides what the "model" writes — tool calls the lab will run included — so one
 * from elsewhere, arriving through a link, is loaded only after the person agrees.
 *
 * The answer comes from the very URL the fetch will use, resolved against the page's address as
 * the browser resolves it: the browser's URL parser reads `\` as `/` and drops tabs and
 * newlines, so `/\host/x`, `\\host/x` and `/<TAB>/host/x` all name another host, whatever the
 * text looks like. What cannot be resolved counts as another site's.
 */
export function isCrossOriginTranscript(source: string, pageHref: string): boolean {
  let page: URL;
  try {
    page = new URL(pageHref);
  } catch {
    return true;
  }
  try {
    return new URL(source.trim(), page).origin !== page.origin;
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
