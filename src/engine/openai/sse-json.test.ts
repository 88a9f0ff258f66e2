// The SSE reader holds a bounded amount while it waits for a line or an event to end: a server
// that sends one `data:` line without end (or data lines without the blank line that ends an
// event) gets a clear error, and the body is cancelled, instead of a buffer growing for ever.
import { describe, expect, it } from "vitest";
import { readSseJson, StreamFormatError } from "./sse-json.ts";

/** A body made of `first`, then `piece` for as long as it is read (at most `cap` pieces); counts what was pulled and whether it was cancelled. */
function body(first: string, piece: string, cap = 100_000) {
  const encoder = new TextEncoder();
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(first));
    },
    pull(controller) {
      state.pulled += 1;
      if (state.pulled > cap) controller.close();
      else controller.enqueue(encoder.encode(piece));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

async function readAll(stream: ReadableStream<Uint8Array>, maxChars: number): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const payload of readSseJson(stream, undefined, maxChars)) out.push(payload);
  return out;
}

describe("readSseJson's bounds", () => {
  it("stops at one endless data line with a clear error and cancels the body", async () => {
    const { stream, state } = body('data: {"a":1}\n\ndata: {"text": "', "x".repeat(1_000));
    await expect(readAll(stream, 10_000)).rejects.toThrow(new StreamFormatError("The server sent a stream line of more than 10,000 characters without ending it; the lab stopped reading there."));
    expect(state.pulled).toBeLessThan(15);
    expect(state.cancelled).toBe(true);
  });

  it("still yields the events that ended before the overlong line, when both arrive in one read", async () => {
    const { stream } = body('data: {"a":1}\n\ndata: {"text": "' + "x".repeat(20_000), "x");
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const payload of readSseJson(stream, undefined, 10_000)) seen.push(payload);
      })(),
    ).rejects.toThrow(/stream line of more than 10,000 characters/);
    expect(seen).toEqual([{ a: 1 }]);
  });

  it("stops at an event whose data lines never end with a blank line", async () => {
    const { stream, state } = body("", 'data: "' + "y".repeat(500) + '"\n');
    await expect(readAll(stream, 10_000)).rejects.toThrow(/stream event of more than 10,000 characters/);
    expect(state.pulled).toBeLessThan(30);
  });

  it("reads long streams of ordinary events, keep-alive comments included, to their end", async () => {
    const { stream } = body("", ': keep-alive\n\ndata: {"t": "' + "z".repeat(900) + '"}\n\n', 200);
    const payloads = await readAll(stream, 10_000);
    expect(payloads).toHaveLength(200);
  });
});
