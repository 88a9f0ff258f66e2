// The line under an assistant turn that did not simply answer: how and why it ended, and what
// the person can do about it.
import type { AssistantTurn } from "../../store/derive-chat.ts";

export interface TurnEndNote {
  tone: "warn" | "error";
  text: string;
}

function cutOffNote(turn: AssistantTurn): string {
  const kept = "The model had not finished; what it wrote is kept.";
  const detail = turn.error ? ` ${turn.error}` : "";
  switch (turn.cutOff?.limit) {
    case "max-tokens": {
      const budget = turn.cutOff.maxTokens !== undefined ? ` (${turn.cutOff.maxTokens.toLocaleString("en-US")})` : "";
      return `Cut off at max tokens${budget}. ${kept} Raise "Max tokens" in Settings, or turn thinking off for shorter replies.${detail}`;
    }
    case "context-window":
      // The loop's own message when the prompt alone filled the window (nothing was generated).
      if (turn.error) return `Context window full: ${turn.error}`;
      return `Context window full: the prompt and the reply filled the model's context window. ${kept} Start a new conversation, offer fewer tools, or use a model with a larger context.${detail}`;
    case "output-limit":
      // The loop's own message says which part passed which limit.
      return `Cut off: ${turn.error ?? "the reply passed the lab's limit on what one step keeps; the generation was stopped there."} What arrived up to the limit is kept; calls in it were not run.`;
    default:
      return `Cut off at a length limit (the engine did not say which). ${kept}${detail}`;
  }
}

export function turnEndNote(turn: AssistantTurn): TurnEndNote | null {
  switch (turn.status) {
    case "aborted":
      return { tone: "warn", text: "Stopped. What was generated so far is kept." };
    case "engine-error":
      return { tone: "error", text: `Failed: ${turn.error ?? "the engine reported an error."}` };
    case "cut-off":
      return { tone: "warn", text: cutOffNote(turn) };
    case "max-steps":
      return { tone: "warn", text: `Stopped at the step limit (${turn.steps} step${turn.steps === 1 ? "" : "s"}) before a final answer. Raise "Max steps" in Settings to let it continue.` };
    case "interrupted":
      return { tone: "warn", text: "Interrupted: the page was closed or reloaded while this turn was running." };
    default:
      return null;
  }
}
