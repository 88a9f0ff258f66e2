// The protocol's parse events as AI SDK stream parts. One writer serves both streamText and
// generateText (generate folds the same parts into content), so the two cannot disagree.
import type { LanguageModelV3Content, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import type { ParseEvent } from "../types.ts";

type Block = { kind: "text" | "reasoning"; id: string };

/**
 * Turns parse events into stream parts: text and reasoning as start/delta/end blocks, each call as
 * tool-input-start, one tool-input-delta with the arguments' JSON, tool-input-end and tool-call.
 *
 * A call the parser could read but not accept (an unknown tool, arguments outside the schema) is
 * still handed to the SDK as a tool-call with what was read, so the SDK reports it with its own
 * error (NoSuchToolError, InvalidToolInputError) and can send it back to the model. A call whose
 * body could not be read at all, but whose tool is known, is handed on with its body as the input
 * (the SDK's own JSON check then fails it). Markup that never named a tool stays text: model
 * output is never dropped.
 */
export class StreamPartWriter {
  private block: Block | undefined;
  private blockCount = 0;
  /** Calls announced by tool-call-start and not yet ended: their tool and the body read so far. */
  private readonly open = new Map<string, { name: string; body: string }>();
  /** Parser ids of calls taken back ("not-a-call"), with how many times: the SDK ids after them differ. */
  private readonly takenBack = new Map<string, number>();
  /** How many tool-call parts were written (the finish reason becomes "tool-calls" when any). */
  calls = 0;

  constructor(private readonly idPrefix: string) {}

  write(event: ParseEvent): LanguageModelV3StreamPart[] {
    const out: LanguageModelV3StreamPart[] = [];
    switch (event.type) {
      case "text":
      case "reasoning":
        if (event.text === "") break;
        this.openBlock(event.type, out);
        out.push({ type: event.type === "text" ? "text-delta" : "reasoning-delta", id: this.block!.id, delta: event.text });
        break;
      case "tool-call-start":
        this.closeBlock(out);
        this.open.set(event.id, { name: event.name, body: "" });
        out.push({ type: "tool-input-start", id: this.callId(event.id), toolName: event.name });
        break;
      case "tool-call-delta": {
        const call = this.open.get(event.id);
        if (call) call.body += event.argumentsDelta;
        break;
      }
      case "repair":
        // A call announced early that was not one (its text follows as text). The SDK has no
        // part that takes a tool-input-start back; the id the parser gives back gets a fresh one.
        if (event.kind === "not-a-call" && event.id !== undefined && this.open.delete(event.id)) {
          this.takenBack.set(event.id, (this.takenBack.get(event.id) ?? 0) + 1);
        }
        break;
      case "tool-call-end":
        this.closeBlock(out);
        this.emitCall(event.id, event.call.name, JSON.stringify(event.call.arguments), out);
        break;
      case "parse-error": {
        const started = event.id !== undefined ? this.open.get(event.id) : undefined;
        if (event.call) {
          this.closeBlock(out);
          this.emitCall(event.id ?? `error-${this.nextId()}`, event.call.name, JSON.stringify(event.call.arguments), out, started === undefined);
        } else if (started && event.id !== undefined) {
          this.closeBlock(out);
          this.emitCall(event.id, started.name, started.body, out);
        } else {
          this.openBlock("text", out);
          out.push({ type: "text-delta", id: this.block!.id, delta: event.raw });
        }
        break;
      }
      default:
        break;
    }
    return out;
  }

  /** Closes what is open: the last text or reasoning block. */
  end(): LanguageModelV3StreamPart[] {
    const out: LanguageModelV3StreamPart[] = [];
    this.closeBlock(out);
    return out;
  }

  private emitCall(parserId: string, toolName: string, input: string, out: LanguageModelV3StreamPart[], announce = !this.open.has(parserId)): void {
    const id = this.callId(parserId);
    if (announce) out.push({ type: "tool-input-start", id, toolName });
    this.open.delete(parserId);
    out.push({ type: "tool-input-delta", id, delta: input });
    out.push({ type: "tool-input-end", id });
    out.push({ type: "tool-call", toolCallId: id, toolName, input });
    this.calls += 1;
  }

  /**
   * The parser numbers calls per reply (call_1, …); the prefix makes them unique across replies,
   * and a count of the times the parser took the id back makes them unique within one.
   */
  private callId(parserId: string): string {
    const takenBack = this.takenBack.get(parserId);
    return takenBack === undefined ? `${this.idPrefix}-${parserId}` : `${this.idPrefix}-${parserId}-${takenBack}`;
  }

  private nextId(): string {
    this.blockCount += 1;
    return `${this.idPrefix}-${this.blockCount}`;
  }

  private openBlock(kind: Block["kind"], out: LanguageModelV3StreamPart[]): void {
    if (this.block?.kind === kind) return;
    this.closeBlock(out);
    this.block = { kind, id: this.nextId() };
    out.push({ type: kind === "text" ? "text-start" : "reasoning-start", id: this.block.id });
  }

  private closeBlock(out: LanguageModelV3StreamPart[]): void {
    if (!this.block) return;
    out.push({ type: this.block.kind === "text" ? "text-end" : "reasoning-end", id: this.block.id });
    this.block = undefined;
  }
}

/** Stream parts folded into generate content: text and reasoning joined per block, calls as they are. */
export function contentOf(parts: readonly LanguageModelV3StreamPart[]): LanguageModelV3Content[] {
  const content: LanguageModelV3Content[] = [];
  for (const part of parts) {
    if (part.type === "text-start") content.push({ type: "text", text: "" });
    else if (part.type === "reasoning-start") content.push({ type: "reasoning", text: "" });
    else if (part.type === "text-delta" || part.type === "reasoning-delta") {
      const last = content[content.length - 1];
      if (last && (last.type === "text" || last.type === "reasoning")) last.text += part.delta;
    } else if (part.type === "tool-call") content.push(part);
  }
  return content;
}
