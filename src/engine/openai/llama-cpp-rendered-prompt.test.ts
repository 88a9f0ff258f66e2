// Native mode on llama.cpp's server: the engine can ask the server what prompt its template
// renders from the very chat body (POST /apply-template beside /v1); other servers cannot say.
import { describe, expect, it } from "vitest";
import { APPLY_TEMPLATE_MAX_BYTES } from "./llama-cpp-probe.ts";
import { OpenAiEngine } from "./openai-engine.ts";

function recordingFetch(answer: () => Response) {
  const calls: Array<{ url: string; body: unknown; auth: string | null }> = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(input), body: JSON.parse(String(init?.body)), auth: new Headers(init?.headers).get("authorization") });
    return answer();
  }) as typeof fetch;
  return { calls, fetchImpl };
}

describe("the prompt llama.cpp's server renders from a native request", () => {
  const input = { messages: [{ role: "user" as const, content: "Weather in Rome?" }], tools: [{ name: "get_weather", description: "Weather", parameters: { type: "object" } }] };

  it("posts the very chat body to /apply-template and returns its prompt", async () => {
    const { calls, fetchImpl } = recordingFetch(() => Response.json({ prompt: "<|im_start|>user\nWeather in Rome?<|im_end|>\n" }));
    const engine = new OpenAiEngine({ baseUrl: "http://127.0.0.1:9/v1", model: "m", mode: "native", apiKey: "k", llamaCpp: {}, fetch: fetchImpl });
    const body = engine.native!.request(input, { temperature: 0 });
    expect(await engine.native!.renderPrompt!(body, new AbortController().signal)).toBe("<|im_start|>user\nWeather in Rome?<|im_end|>\n");
    expect(calls).toEqual([{ url: "http://127.0.0.1:9/apply-template", body, auth: "Bearer k" }]);
  });

  it("says what went wrong when the server cannot render", async () => {
    const notFound = recordingFetch(() => new Response("no", { status: 404 }));
    const engine = new OpenAiEngine({ baseUrl: "http://127.0.0.1:9/v1", model: "m", mode: "native", llamaCpp: {}, fetch: notFound.fetchImpl });
    await expect(engine.native!.renderPrompt!({}, new AbortController().signal)).rejects.toThrow("http://127.0.0.1:9/apply-template answered HTTP 404");
    const odd = recordingFetch(() => Response.json({ text: 1 }));
    const other = new OpenAiEngine({ baseUrl: "http://127.0.0.1:9/v1", model: "m", mode: "native", llamaCpp: {}, fetch: odd.fetchImpl });
    await expect(other.native!.renderPrompt!({}, new AbortController().signal)).rejects.toThrow("answered without a prompt string");
  });

  it("follows no redirect: a 307 to another origin is refused and the body is not sent on", async () => {
    const redirect = recordingFetch(() => new Response(null, { status: 307, headers: { location: "http://127.0.0.2:9/steal" } }));
    const asked: RequestInit[] = [];
    const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
      asked.push(init!);
      return redirect.fetchImpl(input, init);
    }) as typeof fetch;
    const engine = new OpenAiEngine({ baseUrl: "http://127.0.0.1:9/v1", model: "m", mode: "native", llamaCpp: {}, fetch: fetchImpl });
    await expect(engine.native!.renderPrompt!({}, new AbortController().signal)).rejects.toThrow(
      "http://127.0.0.1:9/apply-template answered with a redirect to http://127.0.0.2:9/steal; the lab follows no redirect",
    );
    expect(asked.map((init) => init.redirect)).toEqual(["manual"]);
    expect(redirect.calls.map((call) => call.url)).toEqual(["http://127.0.0.1:9/apply-template"]);
  });

  it("refuses an answer past APPLY_TEMPLATE_MAX_BYTES while it arrives, and reads no further", async () => {
    let pulled = 0;
    const chunk = new TextEncoder().encode("x".repeat(1024 * 1024));
    const endless = () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"prompt":"'));
          },
          pull(controller) {
            pulled += 1;
            controller.enqueue(chunk);
          },
        }),
        { headers: { "content-type": "application/json" } },
      );
    const { fetchImpl } = recordingFetch(endless);
    const engine = new OpenAiEngine({ baseUrl: "http://127.0.0.1:9/v1", model: "m", mode: "native", llamaCpp: {}, fetch: fetchImpl });
    await expect(engine.native!.renderPrompt!({}, new AbortController().signal)).rejects.toThrow(
      `answered more than ${APPLY_TEMPLATE_MAX_BYTES.toLocaleString("en-US")} bytes; the rendered prompt was not kept`,
    );
    expect(pulled).toBeLessThanOrEqual(APPLY_TEMPLATE_MAX_BYTES / chunk.byteLength + 2);
  });

  it("is not offered for a server that is not llama.cpp", () => {
    const engine = new OpenAiEngine({ baseUrl: "http://127.0.0.1:9/v1", model: "m", mode: "native" });
    expect(engine.native?.renderPrompt).toBeUndefined();
  });
});
