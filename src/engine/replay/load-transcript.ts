// Finds a transcript by built-in name or fetches it from a URL, with a clear message for each
// way that can fail (not found, not JSON, not a transcript, network down).
import { builtInTranscripts, isBuiltInTranscriptName } from "./built-in-transcripts.ts";
import { parseTranscript, TranscriptError, type Transcript } from "./transcript.ts";

export type FetchLike = (url: string, init?: { signal?: AbortSignal }) => Promise<Response>;

export async function loadTranscript(
  nameOrUrl: string,
  fetchImpl: FetchLike = (url, init) => globalThis.fetch(url, init),
  signal?: AbortSignal,
): Promise<Transcript> {
  const source = nameOrUrl.trim();
  if (!source) throw new TranscriptError("No transcript given: pass a built-in transcript name or the URL of a transcript JSON.");
  if (isBuiltInTranscriptName(source)) return builtInTranscripts[source];
  if (!looksLikeUrl(source)) {
    throw new TranscriptError(
      `"${source}" is neither a built-in transcript nor a URL. Built-in transcripts: ${Object.keys(builtInTranscripts).join(", ")}.`,
    );
  }
  let response: Response;
  try {
    response = await fetchImpl(source, signal ? { signal } : undefined);
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new TranscriptError(
      `Could not download the transcript from ${source}: ${error instanceof Error ? error.message : String(error)}. ` +
        `Check the address and your connection (and that the server allows cross-origin requests).`,
    );
  }
  if (!response.ok) {
    throw new TranscriptError(
      `Could not download the transcript from ${source}: the server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ""}.`,
    );
  }
  const body = await response.text();
  // Single-page servers answer unknown paths with their index.html (status 200).
  if (/^\s*</.test(body) || /text\/html/i.test(response.headers.get("content-type") ?? "")) {
    throw new TranscriptError(
      `${source} returned a web page (HTML), not a transcript JSON — most likely there is no transcript at that address. Check the URL.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    throw new TranscriptError(
      `The transcript at ${source} is not valid JSON (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  return parseTranscript(json, `The transcript at ${source}`);
}

/** Absolute http(s) URLs and same-site paths ("/transcripts/x.json", "./x.json") count as URLs. */
export function looksLikeUrl(source: string): boolean {
  return /^(https?:)?\/\//i.test(source) || source.startsWith("/") || source.startsWith("./") || source.startsWith("../") || /\.json(\?|#|$)/i.test(source);
}
