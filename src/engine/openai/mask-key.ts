// The server engine's API key never reaches the event log, an export, the screen or the next
// prompt through the server: a server that echoes it (a 403 body naming the key, an error event,
// streamed text) has it masked, in failures and in every string the stream carries: text,
// reasoning, call ids, names and arguments, and the finish reason.
import type { EngineChunk } from "toolcall-middleware/types.ts";
import { maskText, MIN_SECRET_LENGTH, StreamMasker } from "../../net/mask-text.ts";
import { ServerFailure } from "./server-failure.ts";

/** The key as the secrets to look for (none when it is too short to tell from ordinary text). */
export function keySecrets(apiKey: string | undefined): string[] {
  const key = apiKey?.trim() ?? "";
  return key.length >= MIN_SECRET_LENGTH ? [key] : [];
}

/** An error with the key masked in everything it says; an abort stays what it is. */
export function maskError(error: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return error;
  if (error instanceof ServerFailure) return new ServerFailure(error.kind, maskText(error.message, secrets), maskText(error.suggestion, secrets), maskText(error.detail, secrets));
  if (error instanceof Error) {
    const message = maskText(error.message, secrets);
    if (message === error.message) return error;
    const masked = new Error(message);
    masked.name = error.name;
    return masked;
  }
  return typeof error === "string" ? maskText(error, secrets) : error;
}

/** The stream with the key masked in its text, reasoning and call arguments, and in what it throws. */
export async function* maskKeyInStream(source: AsyncIterable<EngineChunk>, secrets: readonly string[]): AsyncGenerator<EngineChunk> {
  if (secrets.length === 0) {
    yield* source;
    return;
  }
  const text = new StreamMasker(secrets);
  const reasoning = new StreamMasker(secrets);
  const calls = new Map<number, StreamMasker>();
  const flush = function* (): Generator<EngineChunk> {
    const restReasoning = reasoning.flush();
    if (restReasoning) yield { type: "reasoning", text: restReasoning };
    const restText = text.flush();
    if (restText) yield { type: "text", text: restText };
    for (const [index, masker] of calls) {
      const rest = masker.flush();
      if (rest) yield { type: "tool-call-delta", index, argumentsDelta: rest };
    }
  };
  try {
    for await (const chunk of source) {
      if (chunk.type === "text") {
        const shown = text.push(chunk.text);
        if (shown) yield { type: "text", text: shown };
      } else if (chunk.type === "reasoning") {
        const shown = reasoning.push(chunk.text);
        if (shown) yield { type: "reasoning", text: shown };
      } else if (chunk.type === "tool-call-delta") {
        let masker = calls.get(chunk.index);
        if (!masker) calls.set(chunk.index, (masker = new StreamMasker(secrets)));
        const name = chunk.name === undefined ? undefined : maskText(chunk.name, secrets);
        const id = chunk.id === undefined ? undefined : maskText(chunk.id, secrets);
        yield { ...chunk, ...(id !== undefined ? { id } : {}), ...(name !== undefined ? { name } : {}), argumentsDelta: masker.push(chunk.argumentsDelta) };
      } else if (chunk.type === "prompt-progress") {
        yield chunk; // numbers only
      } else {
        // What is held back comes before the usage that ends the stream.
        yield* flush();
        yield { type: "usage", usage: maskStrings(chunk.usage, secrets) };
      }
    }
    yield* flush();
  } catch (error) {
    // What arrived before the failure is kept, as without masking.
    yield* flush();
    throw maskError(error, secrets);
  }
}

/** The usage with every string in it masked (the finish reason is the server's to say). */
function maskStrings<T extends object>(usage: T, secrets: readonly string[]): T {
  return Object.fromEntries(Object.entries(usage).map(([key, value]) => [key, typeof value === "string" ? maskText(value, secrets) : value])) as T;
}
