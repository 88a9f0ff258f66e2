import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as middleware from "./index.ts";
import type { Engine, EngineChunk, LoopEvent } from "./index.ts";

/** The smallest engine: replies in turn, one chunk each. */
function replies(...texts: string[]): Engine {
  let turn = 0;
  return {
    name: "replies",
    async *generate(): AsyncGenerator<EngineChunk> {
      yield { type: "text", text: texts[turn++] ?? "" };
    },
  };
}

describe("the middleware's public entry", () => {
  it("offers the protocols, the loop, the template and the tool helpers", () => {
    expect(middleware.listProtocols().map((protocol) => protocol.name)).toEqual(expect.arrayContaining(["hermes", "xml", "qwen3-coder"]));
    expect(middleware.getProtocol("hermes")).toBe(middleware.hermesProtocol);
    expect(middleware.chatmlTemplate.name).toBe("chatml");
    expect(typeof middleware.runToolLoop).toBe("function");
    expect(typeof middleware.formats.toOpenAITool).toBe("function");
  });

  it("runs a tool-calling conversation on its own, as the README shows", async () => {
    const add = middleware.defineTool({
      name: "add",
      description: "Adds two numbers",
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: async ({ a, b }) => a + b,
    });
    const engine = replies('<tool_call>\n{"name": "add", "arguments": {"a": 2, "b": "3"}}\n</tool_call>', "2 + 3 = 5");
    const events: LoopEvent[] = [];
    const loop = middleware.runToolLoop({ engine, protocol: middleware.getProtocol("hermes")!, tools: [add], messages: [{ role: "user", content: "2+3?" }] });
    let next = await loop.next();
    while (!next.done) {
      events.push(next.value);
      next = await loop.next();
    }
    expect(next.value.finalText).toBe("2 + 3 = 5");
    expect(events.find((event) => event.type === "tool-end")).toMatchObject({ status: "ok", content: "5" });
  });
});
