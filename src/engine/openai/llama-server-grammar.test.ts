// Constrained prompt mode on llama.cpp's server: it takes no structural tag (vLLM's and SGLang's
// `response_format`), so the engine sends the step's tag written as a GBNF `grammar`.
import { describe, expect, it } from "vitest";
import { structuralTagFor } from "toolcall-middleware/loop/step-constraint.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import type { EngineUsage } from "toolcall-middleware/types.ts";
import { OpenAiEngine } from "./openai-engine.ts";

const tools = [{ name: "get_weather", description: "Weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }];

async function sentBody(llamaCpp: boolean): Promise<Record<string, unknown> & { usage: EngineUsage | undefined }> {
  let body: Record<string, unknown> = {};
  let usage: EngineUsage | undefined;
  const fetchStub = (_url: string | URL | Request, init?: RequestInit) => {
    body = JSON.parse(String(init?.body)) as Record<string, unknown>;
    return Promise.resolve(new Response('data: {"choices":[{"index":0,"text":"ok","finish_reason":"stop"}]}\n\ndata: [DONE]\n\n', { headers: { "content-type": "text/event-stream" } }));
  };
  const engine = new OpenAiEngine({ baseUrl: "http://127.0.0.1:1/v1", model: "m", mode: "prompt", constrain: true, fetch: fetchStub as typeof fetch, ...(llamaCpp ? { llamaCpp: {} } : {}) });
  const tag = structuralTagFor("auto", getProtocol("hermes")!, tools);
  if (!("structuralTag" in tag)) throw new Error(tag.unsupported);
  for await (const chunk of engine.generate("prompt", { maxTokens: 8 }, new AbortController().signal, { structuralTag: tag.structuralTag })) if (chunk.type === "usage") usage = chunk.usage;
  return { ...body, usage };
}

describe("constrained prompt mode on llama.cpp's server", () => {
  it("sends the structural tag as a GBNF grammar (no response_format) to llama.cpp, as response_format to other servers", async () => {
    const llama = await sentBody(true);
    expect(llama.response_format).toBeUndefined();
    expect(typeof llama.grammar).toBe("string");
    expect(llama.grammar).toContain("root ::=");
    expect(llama.grammar).toContain("get_weather");
    const other = await sentBody(false);
    expect(other.grammar).toBeUndefined();
    expect(other.response_format).toMatchObject({ type: "structural_tag" });
    // The step's usage says which, for the debugger.
    expect(llama.usage?.constraintSentAs).toBe("grammar");
    expect(other.usage?.constraintSentAs).toBe("response_format");
  });
});
