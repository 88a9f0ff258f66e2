// What connecting learns about a llama.cpp server, against answers shaped like llama-server's
// (the real server's answers are checked in llama-server-engine.test.ts).
import { describe, expect, it } from "vitest";
import { probeLlamaCpp, promptToSend } from "./llama-cpp-probe.ts";

type Route = (init: RequestInit | undefined) => Response | Promise<Response>;

function fakeServer(routes: Record<string, Route>): { fetch: typeof fetch; asked: string[] } {
  const asked: string[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    asked.push(`${init?.method ?? "GET"} ${url}`);
    const route = routes[new URL(url).pathname];
    return route ? route(init) : new Response("Not Found", { status: 404 });
  }) as typeof fetch;
  return { fetch: fetchImpl, asked };
}

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { "Content-Type": "application/json" } });
const llamaProps = (bos: string) => () => json({ bos_token: bos, eos_token: "<eos>", build_info: "b1-de3ff815", chat_template: "…" });

describe("probeLlamaCpp", () => {
  it("finds that a llama.cpp server adds the model's BOS itself (Gemma: add_bos)", async () => {
    const server = fakeServer({ "/props": llamaProps("<bos>"), "/tokenize": () => json({ tokens: [2] }) });
    expect(await probeLlamaCpp("http://127.0.0.1:8521/v1", undefined, server.fetch)).toEqual({ bosAddedByServer: "<bos>" });
    // llama.cpp's own endpoints sit beside /v1, not under it.
    expect(server.asked).toEqual(["GET http://127.0.0.1:8521/props", "POST http://127.0.0.1:8521/tokenize"]);
  });

  it("a model without add_bos (SmolLM2): a llama.cpp server that adds nothing", async () => {
    const server = fakeServer({ "/props": llamaProps("<|im_start|>"), "/tokenize": () => json({ tokens: [] }) });
    expect(await probeLlamaCpp("http://127.0.0.1:8521/v1", undefined, server.fetch)).toEqual({});
  });

  it("another server (no /props, or a /props that is not llama.cpp's): nothing known", async () => {
    expect(await probeLlamaCpp("http://127.0.0.1:8000/v1", undefined, fakeServer({}).fetch)).toBeUndefined();
    expect(await probeLlamaCpp("http://127.0.0.1:8000/v1", undefined, fakeServer({ "/props": () => json({ hello: "world" }) }).fetch)).toBeUndefined();
    expect(await probeLlamaCpp("http://127.0.0.1:8000/v1", undefined, fakeServer({ "/props": () => new Response("<html>") }).fetch)).toBeUndefined();
  });

  it("a server that never answers /props does not hold up connecting", async () => {
    const hang: Route = (init) =>
      new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason as Error), { once: true }));
    expect(await probeLlamaCpp("http://127.0.0.1:8000/v1", undefined, fakeServer({ "/props": hang }).fetch)).toBeUndefined();
  });
});

describe("promptToSend", () => {
  it("leaves out the leading BOS text the server puts back as a token", () => {
    expect(promptToSend("<bos><start_of_turn>user\nHi<end_of_turn>\n", { bosAddedByServer: "<bos>" })).toBe("<start_of_turn>user\nHi<end_of_turn>\n");
  });
  it("sends the prompt as rendered otherwise", () => {
    expect(promptToSend("<bos><start_of_turn>user\n", undefined)).toBe("<bos><start_of_turn>user\n");
    expect(promptToSend("<bos><start_of_turn>user\n", {})).toBe("<bos><start_of_turn>user\n");
    expect(promptToSend("<|im_start|>user\n", { bosAddedByServer: "<bos>" })).toBe("<|im_start|>user\n");
  });
});
