// How much of a replay transcript a conversation has left: the replay engine plays the n-th turn
// of its script at the conversation's n-th generation since the script took over (the
// conversation's replayOrigin, set when a turn is sent). Derived from the log, so the chat can
// say the recording is over before a message asks for a turn that does not exist.
import type { LoopEvent } from "toolcall-middleware/types.ts";
import type { Conversation } from "./conversation.ts";
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
