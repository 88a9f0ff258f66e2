// Reads a Server-Sent Events body (what OpenAI-compatible servers stream) as JSON payloads.
// The SSE framing (fields, line endings across chunk boundaries, comments) is eventsource-parser's
// job; this module only decodes bytes, stops at `[DONE]` and turns each `data` into JSON.
import { createParser, type EventSourceMessage } from "eventsource-parser";

export class StreamFormatError extends Error {
  override name = "StreamFormatError";
}

/** Yields each event's JSON payload until `[DONE]` or the end of the body. */
export async function* readSseJson(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<unknown> {
  const pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event) });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const cancel = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener("abort", cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      parser.feed(done ? decoder.decode() : decoder.decode(value, { stream: true }));
      for (const event of pending.splice(0)) {
        if (event.data === "[DONE]") return;
        yield parseData(event);
      }
      if (done) return;
    }
  } finally {
    signal?.removeEventListener("abort", cancel);
    cancel();
  }
}

function parseData(event: EventSourceMessage): unknown {
  try {
    return JSON.parse(event.data);
  } catch {
    throw new StreamFormatError(`The server sent an event that is not JSON: ${event.data.slice(0, 200)}`);
  }
}
