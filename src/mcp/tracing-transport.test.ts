import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { TracingTransport } from "./tracing-transport.ts";

/** A transport that keeps what is sent and lets the test deliver what "arrives". */
function fakeTransport() {
  const sent: JSONRPCMessage[] = [];
  const inner: Transport = {
    start: async () => undefined,
    close: async () => undefined,
    send: async (message) => {
      sent.push(message);
    },
  };
  return { inner, sent, arrive: (message: JSONRPCMessage) => inner.onmessage?.(message) };
}

describe("TracingTransport", () => {
  it("gives each of two concurrent calls its own request, cancellation and response", async () => {
    const { inner, arrive } = fakeTransport();
    const transport = new TracingTransport(inner, (message) => message);
    const received: JSONRPCMessage[] = [];
    transport.onmessage = (message) => received.push(message);
    const first: [string, unknown][] = [];
    const second: [string, unknown][] = [];

    await transport.traceRequest(
      (direction, message) => first.push([direction, message]),
      () => transport.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "a" } }),
    );
    await transport.traceRequest(
      (direction, message) => second.push([direction, message]),
      () => transport.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "b" } }),
    );
    await transport.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "stop" } });
    arrive({ jsonrpc: "2.0", id: 2, result: { content: [] } });
    arrive({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });

    expect(first.map(([direction, message]) => [direction, (message as { method?: string }).method])).toEqual([
      ["sent", "tools/call"],
      ["sent", "notifications/cancelled"],
    ]);
    expect(second).toEqual([
      ["sent", { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "b" } }],
      ["received", { jsonrpc: "2.0", id: 2, result: { content: [] } }],
    ]);
    // Everything still reaches the client, traced or not.
    expect(received).toHaveLength(2);
  });

  it("records the masked copy, never the message itself", async () => {
    const { inner, sent } = fakeTransport();
    const transport = new TracingTransport(inner, () => "masked");
    const recorded: unknown[] = [];
    await transport.traceRequest(
      (_direction, message) => recorded.push(message),
      () => transport.send({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "secret" } }),
    );
    expect(recorded).toEqual(["masked"]);
    expect(sent[0]).toMatchObject({ params: { name: "secret" } });
  });

  it("puts a server's request during a call (elicitation) and the lab's answer in that call's trace, apart from the client's ids", async () => {
    const { inner, arrive } = fakeTransport();
    const transport = new TracingTransport(inner, (message) => message);
    const calls: [string, unknown][] = [];
    await transport.traceRequest(
      (direction, message) => calls.push([direction, message]),
      () => transport.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "ask" } }),
    );
    // The server's request has id 3 too: its own numbering.
    arrive({ jsonrpc: "2.0", id: 3, method: "elicitation/create", params: { message: "Name?" } });
    await transport.send({ jsonrpc: "2.0", id: 3, result: { action: "accept", content: { name: "Ada" } } });
    arrive({ jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "Ada" }] } });
    expect(calls.map(([direction, message]) => `${direction} ${(message as { method?: string }).method ?? JSON.stringify((message as { result: unknown }).result)}`)).toEqual([
      "sent tools/call",
      "received elicitation/create",
      'sent {"action":"accept","content":{"name":"Ada"}}',
      'received {"content":[{"type":"text","text":"Ada"}]}',
    ]);
  });
});
