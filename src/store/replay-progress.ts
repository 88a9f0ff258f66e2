// How much of a replay transcript a conversation has left: the replay engine plays the n-th turn
// of its script at the conversation's n-th generation since the script took over (the
// conversation's replayOrigin, set when a turn is sent). Derived from the log, so the chat can
// say the recording is over before a message asks for a turn that does not exist.
import type { LoopEvent } from "toolcall-middleware/types.ts";
import type { Conversation } from "../domain/conversation.ts";
import { countGenerations } from "./derive-history.ts";

/** The replay engine's name for a transcript (ReplayEngine.name). */
export const replayEngineName = (title: string) => `replay: ${title}`;

/** Turns of the script still to play in this conversation (all of them when this script has not played here yet). */
export function replayTurnsLeft(
  script: { title: string; turns: readonly string[] },
  conversation: { events: readonly LoopEvent[]; replayOrigin?: Conversation["replayOrigin"] },
): number {
  const origin = conversation.replayOrigin;
  const generations = countGenerations(conversation.events);
  const played = origin && origin.engine === replayEngineName(script.title) && origin.generation <= generations ? generations - origin.generation : 0;
  return Math.max(0, script.turns.length - played);
}

/** What the input says when a message asks a finished recording for another turn. */
export function recordingOverNotice(engineName: string): string {
  const title = engineName.replace(/^replay: /, "");
  return `The recording "${title}" is over: every turn it holds has played. Your message is kept in the box; pick what to do next above it.`;
}

/**
 * The run that played a script's first recorded step in this conversation (the one at the
 * conversation's replayOrigin), with the message it answered: the recording was made for its
 * suggested message, and a reply to another message is worth a word beside it.
 */
export function firstReplayedRun(
  script: { title: string },
  conversation: { events: readonly LoopEvent[]; replayOrigin?: Conversation["replayOrigin"] },
): { runId: string; message: string } | null {
  const origin = conversation.replayOrigin;
  if (!origin || origin.engine !== replayEngineName(script.title)) return null;
  const branches = new Set<string>();
  const asked = new Map<string, string>();
  let generation = 0;
  for (const event of conversation.events) {
    if (event.type === "run-start") {
      if (event.branch) branches.add(event.runId);
      else if (!event.parent) asked.set(event.runId, event.messages.findLast((m) => m.role === "user")?.content ?? "");
    } else if (event.type === "step-start" && !branches.has(event.runId) && !(event.parent && branches.has(event.parent.runId))) {
      if (generation === origin.generation) {
        const runId = event.parent?.runId ?? event.runId;
        return asked.has(runId) ? { runId, message: asked.get(runId)! } : null;
      }
      generation += 1;
    }
  }
  return null;
}
