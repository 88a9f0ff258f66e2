// The replay engine's public surface.
export { ReplayEngine, TranscriptExhaustedError, type ReplayEngineOptions } from "./replay-engine.ts";
export { builtInTranscripts, builtInTranscriptNames, isBuiltInTranscriptName, type BuiltInTranscriptName } from "./built-in-transcripts.ts";
export { loadTranscript, looksLikeUrl, type FetchLike } from "./load-transcript.ts";
export { parseTranscript, transcriptSchema, TranscriptError, DEFAULT_CHUNK_CHARS, DEFAULT_DELAY_MS, type Transcript } from "./transcript.ts";
export { isCrossOriginTranscript, readEngineChoiceFromUrl, withoutTranscript, type EngineUrlChoice } from "./url-params.ts";
