// The server engine's API key never reaches the event log, an export, the screen or the next
// prompt through the server: a server that echoes it (a 403 body naming the key, an error event,
// streamed text) has it masked, in failures and in every string the stream carries: text,
// reasoning, call ids, names and arguments, and the finish reason.
import type { EngineChunk, TokenProbability } from "toolcall-middleware/types.ts";
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
  const tokened = new TokenAlignedMasker(secrets);
  let tokensLost = false;
  const reasoning = new StreamMasker(secrets);
  const calls = new Map<number, StreamMasker>();
  const flush = function* (): Generator<EngineChunk> {
    if (!tokensLost) yield* tokened.flush();
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
        if (!tokensLost) {
          yield* tokened.push(chunk);
          if (!tokened.lost) continue;
          // The key is in the text: from here on the text alone is masked and no token is kept
          // (a token's own text would show what the mask hides).
          tokensLost = true;
          const shown = text.push(tokened.takeRaw());
          if (shown) yield { type: "text", text: shown };
          continue;
        }
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

type TextChunk = Extract<EngineChunk, { type: "text" }>;

/**
 * The reply's text masked without losing its tokens: the text is held back as StreamMasker holds
 * it (the key's length less one, where a key could still begin), but cut only where a chunk or a
 * token ends, so each chunk let through keeps its tokens and their probabilities — the decision
 * point and the Probabilities view need them. Once a key is found in the text, `lost` is set and
 * what is held is handed back raw to be masked as plain text.
 */
class TokenAlignedMasker {
  /** Held pieces: a token with its text, or a chunk's text that came without tokens. */
  private held: Array<{ text: string; token?: TokenProbability }> = [];
  private heldText = "";
  private readonly holdBack: number;
  lost = false;

  constructor(private readonly secrets: readonly string[]) {
    this.holdBack = Math.max(0, ...secrets.map((secret) => secret.length - 1));
  }

  *push(chunk: TextChunk): Generator<EngineChunk> {
    const tokens = chunk.tokens ?? [];
    // Tokens that spell the chunk's text are held one by one; anything else as one piece.
    if (tokens.length > 0 && tokens.map((token) => token.text).join("") === chunk.text) for (const token of tokens) this.held.push({ text: token.text, token });
    else this.held.push({ text: chunk.text });
    this.heldText += chunk.text;
    if (this.secrets.some((secret) => this.heldText.includes(secret))) {
      this.lost = true;
      return;
    }
    // No key in what is held, so none can end before its last holdBack characters: the pieces
    // before those can go.
    let releasable = this.heldText.length - this.holdBack;
    let count = 0;
    while (count < this.held.length && this.held[count]!.text.length <= releasable) releasable -= this.held[count++]!.text.length;
    yield* this.release(count);
  }

  *flush(): Generator<EngineChunk> {
    yield* this.release(this.held.length);
  }

  /** What is held, unmasked, for the plain masker; nothing is held after. */
  takeRaw(): string {
    const raw = this.heldText;
    this.held = [];
    this.heldText = "";
    return raw;
  }

  /** The first `count` pieces as chunks: runs of tokens with their tokens, other text alone. */
  private *release(count: number): Generator<EngineChunk> {
    const out = this.held.splice(0, count);
    this.heldText = this.heldText.slice(out.reduce((length, piece) => length + piece.text.length, 0));
    for (let at = 0; at < out.length; ) {
      if (!out[at]!.token) {
        yield { type: "text", text: out[at]!.text };
        at += 1;
        continue;
      }
      const run: TokenProbability[] = [];
      let runText = "";
      for (; at < out.length && out[at]!.token; at += 1) {
        run.push(out[at]!.token!);
        runText += out[at]!.text;
      }
      yield { type: "text", text: runText, tokens: run };
    }
  }
}
