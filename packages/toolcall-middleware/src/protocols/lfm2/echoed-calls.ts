// LFM2 sometimes repeats itself after a call block: it writes the call list again, bare, and
// caps it with a stray <|tool_call_end|>:
//   <|tool_call_start|>[get_weather(city="Paris")]<|tool_call_end|>[get_weather(city="Paris")]<|tool_call_end|>
// The repeat is neither the answer's text nor a second call. This filter sits behind the
// protocol's parser: text right after a call that begins like a call list is held back while it
// still can be one; a list followed (after blanks) by the dropped stray close is dropped with a
// repair, anything else is let through unchanged. Each character is fed to the tracker once.
import { PythonicCallTracker } from "../../parser/pythonic-calls.ts";
import type { ParseEvent, StreamParser } from "../../types.ts";

type TextEvent = Extract<ParseEvent, { type: "text" }>;

export class EchoedCallsFilter implements StreamParser {
  /** Right after a call ended: text that follows may be an echo. */
  private afterCall = false;
  private held: TextEvent[] = [];
  private heldText = "";
  private tracker: PythonicCallTracker | undefined;
  /** Where the list ended in heldText (only blanks may follow), or -1. */
  private listEnd = -1;

  constructor(
    private readonly inner: StreamParser,
    /** The close marker whose stray copy caps an echo. */
    private readonly close: string,
  ) {}

  push(chunk: string): ParseEvent[] {
    return this.filter(this.inner.push(chunk));
  }

  end(): ParseEvent[] {
    const out = this.filter(this.inner.end());
    return this.held.length > 0 ? [...this.release(), ...out] : out;
  }

  private filter(events: ParseEvent[]): ParseEvent[] {
    // Most chunks hold nothing this filter acts on: they pass as they are.
    if (!this.afterCall && this.held.length === 0 && !events.some((e) => e.type === "tool-call-end")) return events;
    const out: ParseEvent[] = [];
    for (const event of events) {
      if (event.type === "text" && (this.afterCall || this.held.length > 0)) {
        if (this.hold(event)) continue;
        out.push(...this.release());
        continue;
      }
      if (event.type === "repair" && event.kind === "stray-close-tag" && event.before === this.close && this.listEnd >= 0) {
        const first = this.held[0]!;
        out.push({
          type: "repair",
          kind: "echoed-calls",
          message: `dropped a call list the model wrote again after its calls, capped by a stray ${this.close}`,
          before: this.heldText + this.close,
          after: "",
          span: { start: first.span.start, end: event.span.end },
        });
        this.reset();
        continue;
      }
      if (this.held.length > 0) out.push(...this.release());
      this.afterCall = event.type === "tool-call-end";
      out.push(event);
    }
    return out;
  }

  /** Takes a text event into the held echo; false when the text cannot be one (the caller then releases it with the rest). */
  private hold(event: TextEvent): boolean {
    this.afterCall = false;
    this.held.push(event);
    const from = this.heldText.length;
    this.heldText += event.text;
    const text = this.heldText;
    let k = from;
    if (this.tracker === undefined) {
      while (k < text.length && /\s/.test(text[k]!)) k++;
      if (k === text.length) return true;
      this.tracker = new PythonicCallTracker();
    }
    if (this.listEnd >= 0) return text.slice(from).trim() === "";
    const stop = this.tracker.feed(text, k, text.length);
    if (stop < 0) {
      if (this.tracker.complete) this.listEnd = text.length;
      return true;
    }
    if (!this.tracker.complete) return false;
    this.listEnd = stop;
    return text.slice(stop).trim() === "";
  }

  private release(): ParseEvent[] {
    const held = this.held;
    this.reset();
    return held;
  }

  private reset(): void {
    this.afterCall = false;
    this.held = [];
    this.heldText = "";
    this.tracker = undefined;
    this.listEnd = -1;
  }
}
