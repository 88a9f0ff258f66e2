// Reads a Server-Sent Events body (what OpenAI-compatible servers stream) as JSON payloads.
// The SSE framing (fields, line endings across chunk boundaries, comments) is eventsource-parser's
// job; this module only decodes bytes, stops at `[DONE]`, bounds what it holds, and turns each
// `data` into JSON.
import { createParser, type EventSourceMessage } from "eventsource-parser";

export class StreamFormatError extends Error {
  override name = "StreamFormatError";
}

/**
 * The most characters of one line, and of one event, held while waiting for its end. A
 * server's stream lines are a few hundred characters (a whole tool call's arguments at most);
 * without a bound, one `data:` line that never ends grows a buffer until the tab runs out of
 * memory (131 MB in 8 s on loopback).
 */
export const MAX_SSE_CHARS = 1_000_000;

/** Yields each event's JSON payload until `[DONE]` or the end of the body. */
export async function* readSseJson(body: ReadableStream<Uint8Array>, signal?: AbortSignal, maxChars = MAX_SSE_CHARS): AsyncGenerator<unknown> {
  const pending: EventSourceMessage[] = [];
  // A comment (a server's keep-alive) holds nothing either: like an event, it ends what is held.
  let ended: boolean;
  const parser = createParser({
    onEvent: (event) => {
      pending.push(event);
      ended = true;
    },
    onComment: () => {
      ended = true;
    },
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const cancel = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener("abort", cancel, { once: true });
  // Characters since the last line break, and since the last event ended.
  let lineChars = 0;
  let eventChars = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lastBreak = Math.max(text.lastIndexOf("\n"), text.lastIndexOf("\r"));
      lineChars = lastBreak < 0 ? lineChars + text.length : text.length - lastBreak - 1;
      // Past the bound, the lines that did end are still read (what arrived before is kept).
      const lineTooLong = lineChars > maxChars;
      ended = false;
      parser.feed(lineTooLong ? text.slice(0, lastBreak + 1) : text);
      eventChars = ended ? lineChars : eventChars + text.length;
      for (const event of pending.splice(0)) {
        if (event.data === "[DONE]") return;
        yield parseData(event);
      }
      if (lineTooLong) throw new StreamFormatError(`The server sent a stream line of more than ${maxChars.toLocaleString("en-US")} characters without ending it; the lab stopped reading there.`);
      if (eventChars > maxChars) throw new StreamFormatError(`The server sent a stream event of more than ${maxChars.toLocaleString("en-US")} characters without ending it; the lab stopped reading there.`);
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
