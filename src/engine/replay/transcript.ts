// The replay engine's script: what a "model" says, turn by turn. Validated with zod so that a
// hand-written or downloaded transcript with a mistake gets a message naming the bad field.
import { z } from "zod";
import { cutOffLimitSchema, tokenProbabilitySchema } from "toolcall-middleware/event-log-schema.ts";

export const DEFAULT_CHUNK_CHARS = 4;
export const DEFAULT_DELAY_MS = 15;

const tokenCount = z.number().int().nonnegative();

export const transcriptSchema = z.object({
  title: z.string().min(1, "title must not be empty"),
  /** The protocol the turns are written in; the app switches to it when it loads the transcript. */
  protocol: z.string().min(1).optional(),
  /** The n-th generation since the conversation started returns turns[n]. */
  turns: z.array(z.string()).min(1, "turns must hold at least one model output"),
  chunkChars: z.number().int().positive().optional(),
  delayMs: z.number().nonnegative().finite().optional(),
  /** Free text shown next to the title: what the transcript demonstrates. */
  description: z.string().optional(),
  /** The user message the turns answer: offered in the empty chat, so a first try fits the recording. */
  suggestedMessage: z.string().min(1).optional(),
  /**
   * The token counts of turns[n] in the run the transcript was made from (null where it had
   * none): the replay reports them as a real engine reports its own. A replay counts nothing.
   */
  usage: z.array(z.object({ promptTokens: tokenCount.optional(), completionTokens: tokenCount.optional() }).nullable()).optional(),
  /**
   * Turns that end at a length limit, as a real engine ends a generation at max tokens or a full
   * context window (finish reason "length"): cutOff[n] names the limit turns[n] stops at, null
   * where the turn ends normally.
   */
  cutOff: z.array(cutOffLimitSchema.nullable()).optional(),
  /**
   * The context window of the model the transcript stands for: with it, the replay fits max
   * tokens to the window and the lab checks a prompt before sending, as with a loaded model,
   * counting with the replay template's tokenizer (Qwen3's).
   */
  contextWindow: z.number().int().positive().optional(),
  /**
   * The tokens of turns[n] with their probabilities and alternatives, as the engine of the
   * recorded run reported them (null where it had none): the replay streams such a turn token by
   * token and reports them as a real engine would. Their texts joined are the turn.
   */
  tokens: z.array(z.array(tokenProbabilitySchema).nullable()).optional(),
}).superRefine((transcript, context) => {
  for (const [index, tokens] of (transcript.tokens ?? []).entries()) {
    if (tokens && tokens.map((t) => t.text).join("") !== transcript.turns[index]) {
      context.addIssue({ code: "custom", path: ["tokens", index], message: `the tokens' texts joined are not turns[${index}]` });
    }
  }
});

export type Transcript = z.infer<typeof transcriptSchema>;

export class TranscriptError extends Error {
  override name = "TranscriptError";
}

/** Checks unknown JSON and returns a transcript, or throws a TranscriptError that lists every problem. */
export function parseTranscript(value: unknown, source = "transcript"): Transcript {
  const result = transcriptSchema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const where = issue.path.length ? issue.path.join(".") : "(top level)";
    return `${where}: ${issue.message}`;
  });
  throw new TranscriptError(
    `${source} is not a valid replay transcript — ${problems.join("; ")}. ` +
      `Expected {"title": string, "protocol"?: string, "turns": string[], "chunkChars"?: number, "delayMs"?: number, "suggestedMessage"?: string, "usage"?: ({"promptTokens"?: number, "completionTokens"?: number} | null)[], "cutOff"?: ("max-tokens" | "context-window" | "output-limit" | null)[], "contextWindow"?: number, "tokens"?: ({"text": string, "p": number, "top": {"text": string, "p": number}[]}[] | null)[]}.`,
  );
}
