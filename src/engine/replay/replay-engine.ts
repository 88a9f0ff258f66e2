// Plays a transcript as if a model were generating it: the n-th generation since the
// conversation started streams turns[n] in small chunks, so the whole tool loop (parsing,
// repair, tools, sub-agents) runs without a GPU.
import type { Engine, EngineChunk, GenerationRequest, GenerationSettings, TokenProbability } from "toolcall-middleware/types.ts";
import { DEFAULT_CHUNK_CHARS, DEFAULT_DELAY_MS, type Transcript } from "./transcript.ts";

/** Longest run of back-to-back chunks before the event loop gets a turn. */
const BURST_MS = 8;

export class TranscriptExhaustedError extends Error {
  override name = "TranscriptExhaustedError";
}

export interface ReplayEngineOptions {
  /** Overrides the transcript's pace (tests use 0). */
  chunkChars?: number;
  delayMs?: number;
  /** Where to start, e.g. the number of generations a restored conversation already had. */
  position?: number;
  /** Counts a prompt's tokens (the replay template's tokenizer); with the transcript's context window, prompts are fitted to it. */
  countPromptTokens?: (prompt: string, signal?: AbortSignal) => Promise<number>;
}

export class ReplayEngine implements Engine {
  readonly name: string;
  /** It plays recorded text: a grammar has nothing to constrain (a constrained step records this). */
  readonly constrains = { supported: false, reason: "the replay engine plays recorded output and cannot constrain it" } as const;
  readonly transcript: Transcript;
  /** Where the transcript recorded its turns' tokens, the replay reports them (it computes none). */
  readonly tokenProbabilities: Engine["tokenProbabilities"];
  private next: number;
  private readonly chunkChars: number;
  private readonly delayMs: number;
  readonly contextWindowSize?: number;
  readonly countPromptTokens?: (prompt: string, signal?: AbortSignal) => Promise<number>;

  constructor(transcript: Transcript, options: ReplayEngineOptions = {}) {
    this.transcript = transcript;
    // A window without a way to count (or a count without a window) decides nothing: both or neither.
    if (transcript.contextWindow !== undefined && options.countPromptTokens) {
      this.contextWindowSize = transcript.contextWindow;
      this.countPromptTokens = options.countPromptTokens;
    }
    this.name = `replay: ${transcript.title}`;
    this.tokenProbabilities = transcript.tokens?.some(Boolean) ? { supported: true } : { supported: false, reason: "This replay transcript records no token probabilities." };
    this.chunkChars = Math.max(1, Math.floor(options.chunkChars ?? transcript.chunkChars ?? DEFAULT_CHUNK_CHARS));
    this.delayMs = Math.max(0, options.delayMs ?? transcript.delayMs ?? DEFAULT_DELAY_MS);
    this.next = clampPosition(options.position ?? 0);
  }

  /** Index of the turn the next generation will play. */
  get position(): number {
    return this.next;
  }

  /** Turns left to play. */
  get remaining(): number {
    return Math.max(0, this.transcript.turns.length - this.next);
  }

  /** Starts over (a new conversation) or continues at a turn (a conversation restored after reload). */
  reset(position = 0): void {
    this.next = clampPosition(position);
  }

  generate(_prompt: string, settings: GenerationSettings, signal: AbortSignal, request?: GenerationRequest): AsyncIterable<EngineChunk> {
    // The turn is claimed when generation is asked for, in call order, so that a sub-agent's
    // generations (sharing this engine) consume the turns that follow its parent's call.
    const index = this.next;
    const turn = this.transcript.turns[index];
    if (turn !== undefined) this.next += 1;
    const tokens = request?.topProbabilities ? this.transcript.tokens?.[index] : undefined;
    // null: asked for, but this turn has none recorded.
    const recorded = request?.topProbabilities ? (tokens ? { tokens, topK: request.topProbabilities } : null) : undefined;
    return this.play(index, turn, settings, signal, recorded);
  }

  private async *play(
    index: number,
    turn: string | undefined,
    settings: GenerationSettings,
    signal: AbortSignal,
    probabilities?: { tokens: TokenProbability[]; topK: number } | null,
  ): AsyncGenerator<EngineChunk> {
    if (turn === undefined) {
      const count = this.transcript.turns.length;
      throw new TranscriptExhaustedError(
        `Replay transcript exhausted: "${this.transcript.title}" has ${count} turn${count === 1 ? "" : "s"} and all have been played ` +
          `(generation #${index + 1} asked for another). Start a new conversation or load a longer transcript.`,
      );
    }
    const text = cutAtStop(turn, settings.stop ?? []);
    const started = performance.now();
    let firstChunkAt: number | undefined;
    let finishReason: "stop" | "abort" | "length" = "stop";
    // Chunk n is due delayMs × (n + 1) after the start. Pacing by a clock rather than sleeping
    // delayMs per chunk keeps the promised rate when the browser stretches short timers to 4 ms:
    // the chunks that fell due meanwhile are delivered one after another on the next wake.
    // Chunks that are due at once (no delay, or a backlog after a stretched timer) still leave
    // the event loop a turn every few milliseconds: a burst never holds the page in one long task.
    let chunkIndex = 0;
    let lastTurn = started;
    // A turn with recorded tokens streams one token per chunk, each with its probabilities.
    const pieces = probabilities ? tokenPieces(probabilities.tokens, text.length, probabilities.topK) : undefined;
    for (let offset = 0; offset < text.length; chunkIndex++) {
      if (signal.aborted) {
        finishReason = "abort";
        break;
      }
      const now = performance.now();
      const wait = started + this.delayMs * (chunkIndex + 1) - now;
      const pause = this.delayMs > 0 && wait > 0 ? wait : now - lastTurn >= BURST_MS ? 0 : null;
      if (pause !== null) {
        if (!(await sleep(pause, signal))) {
          finishReason = "abort";
          break;
        }
        lastTurn = performance.now();
      }
      firstChunkAt ??= performance.now();
      const piece = pieces?.[chunkIndex];
      if (piece) {
        yield { type: "text", text: piece.text, tokens: [piece] };
        offset += piece.text.length;
      } else {
        yield { type: "text", text: text.slice(offset, offset + this.chunkChars) };
        offset += this.chunkChars;
      }
    }
    // Recorded counts belong to the whole turn: not to one stopped early or cut at a stop string.
    const whole = finishReason === "stop" && text.length === turn.length;
    const recorded = whole ? this.transcript.usage?.[index] : undefined;
    // A turn scripted to end at a length limit does so when it was played to its end.
    const cutOff = whole ? this.transcript.cutOff?.[index] : undefined;
    if (cutOff) finishReason = "length";
    yield {
      type: "usage",
      usage: {
        ...recorded,
        finishReason,
        ...(cutOff ? { cutOff } : {}),
        ...(probabilities === null ? { probabilitiesMissing: `This replay transcript records no tokens for turn ${index + 1}.` } : {}),
        ...(firstChunkAt !== undefined ? { timeToFirstTokenMs: firstChunkAt - started } : {}),
      },
    };
  }
}

/** The recorded tokens that lie within the first `length` characters (a stop string may cut the turn), with at most `topK` alternatives each; empty tokens are left out. */
function tokenPieces(tokens: TokenProbability[], length: number, topK: number): TokenProbability[] {
  const pieces: TokenProbability[] = [];
  let used = 0;
  for (const token of tokens) {
    if (token.text === "") continue;
    if (used + token.text.length > length) break;
    used += token.text.length;
    pieces.push({ ...token, top: token.top.slice(0, topK) });
  }
  return pieces;
}

function clampPosition(position: number): number {
  return Number.isFinite(position) && position > 0 ? Math.floor(position) : 0;
}

/** A real engine stops at the first stop string and does not emit it; the replay does the same. */
function cutAtStop(turn: string, stops: string[]): string {
  let cut = turn.length;
  for (const stop of stops) {
    const at = stop ? turn.indexOf(stop) : -1;
    if (at >= 0 && at < cut) cut = at;
  }
  return turn.slice(0, cut);
}

/** Resolves true after ms, or false as soon as the signal aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
