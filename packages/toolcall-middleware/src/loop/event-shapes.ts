// Helpers for building loop events: the fields every event shares are added in one place.
import { MODEL_CHAT_TEMPLATE_CHARS } from "../event-log-schema.ts";
import type { LoopEvent, ParseEvent } from "../types.ts";

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A loop event before the run stamps it with its run id, time and parent. */
export type LoopEventBody = DistributiveOmit<LoopEvent, "runId" | "at" | "parent">;

export type StampEvent = (body: LoopEventBody) => LoopEvent;

export type ParentRef = NonNullable<LoopEvent["parent"]>;

/**
 * Stamps a body in place: bodies are fresh literals made for this one event, and the loop
 * stamps one per streamed chunk, where copying every event's fields showed in profiles.
 */
export function eventStamper(runId: string, parent: ParentRef | undefined): StampEvent {
  return (body) => {
    const event = body as LoopEvent;
    event.runId = runId;
    event.at = Date.now();
    if (parent) event.parent = parent;
    return event;
  };
}

export type ParseErrorEvent = Extract<ParseEvent, { type: "parse-error" }>;

/**
 * Makes a parser's call ids unique across the whole run by prefixing them with the step id
 * (parsers number calls per output). The same id then links the parse events, the tool call,
 * its execution and its result message.
 */
export function scopeParseEvent(event: ParseEvent, stepId: string): ParseEvent {
  const scoped = (id: string) => `${stepId}:${id}`;
  switch (event.type) {
    case "tool-call-start":
    case "tool-call-delta":
      return { ...event, id: scoped(event.id) };
    case "tool-call-end":
      return { ...event, id: scoped(event.id), call: { ...event.call, id: scoped(event.call.id) } };
    case "repair":
    case "parse-error":
      return event.id === undefined ? event : { ...event, id: scoped(event.id) };
    default:
      return event;
  }
}

/**
 * The step-start field recording the model's own chat template, where there is one within the
 * bound (a larger one is left out, and the step is simply not read by a derived format).
 */
export function recordedModelChatTemplate(template: string | undefined): { modelChatTemplate?: string } {
  return template !== undefined && template.trim() !== "" && template.length <= MODEL_CHAT_TEMPLATE_CHARS ? { modelChatTemplate: template } : {};
}
