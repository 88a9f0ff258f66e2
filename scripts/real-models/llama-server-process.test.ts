// The harness every real-model test stands on: llama-server starts with a manifest model on
// 127.0.0.1, answers, reports the model it loaded, and is gone after stop().
import { describe, expect, it } from "vitest";
import { realModelsForTests, startLlamaServer } from "./llama-server-process.ts";

const real = realModelsForTests(["smollm2-135m-instruct-q4_1"]);

describe.skipIf(!real.run)(`llama-server process${real.run ? "" : ` (skipped: ${real.why})`}`, () => {
  it("starts on 127.0.0.1 with SmolLM2, serves /props for that file, gives each slot the whole context, and stops", async () => {
    const server = await startLlamaServer({ modelId: "smollm2-135m-instruct-q4_1", contextSize: 2048, parallel: 2 });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const props = (await (await fetch(`${server.url}/props`, { headers: server.headers })).json()) as { model_path?: string; chat_template?: string; total_slots?: number; default_generation_settings?: { n_ctx?: number } };
      expect(props.model_path).toBe(server.modelFile);
      // llama-server splits -c among its slots; each of the two keeps 2048 tokens, not 1024.
      expect(props.total_slots).toBe(2);
      expect(props.default_generation_settings?.n_ctx).toBe(2048);
      expect(props.chat_template).toContain("<|im_start|>");
      // The server's own CPU time (loading the model took some); undefined only off Linux.
      if (process.platform === "linux") expect(server.cpuSeconds()).toBeGreaterThan(0);
    } finally {
      await server.stop();
    }
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  });

  it("asks every request for this start's key: without it a request is refused (401), from any origin; with it, answered", async () => {
    const server = await startLlamaServer({ modelId: "smollm2-135m-instruct-q4_1", contextSize: 1024 });
    try {
      const chat = { model: server.model.id, messages: [{ role: "user", content: "Hi" }], max_tokens: 1, temperature: 0 };
      const post = (headers: Record<string, string>) => fetch(`${server.baseUrl}/chat/completions`, { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(chat) });
      // What a page on another origin could send: no key (a browser has none to add).
      const foreign = { Origin: "http://evil.example" };
      expect((await post(foreign)).status).toBe(401);
      expect((await fetch(`${server.url}/props`, { headers: foreign })).status).toBe(401);
      expect((await fetch(`${server.url}/slots`, { headers: foreign })).status).toBe(401);
      expect((await post({ ...foreign, Authorization: "Bearer not-the-key" })).status).toBe(401);
      // Another start has another key.
      expect(server.apiKey).toMatch(/^[A-Za-z0-9_-]{32}$/);
      const answered = await post(server.headers);
      expect(answered.status).toBe(200);
      expect(((await answered.json()) as { choices?: unknown[] }).choices).toHaveLength(1);
      expect((await fetch(`${server.url}/props`, { headers: server.headers })).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it("names the server's last log lines when it cannot start", async () => {
    await expect(startLlamaServer({ modelId: "smollm2-135m-instruct-q4_1", extraArgs: ["--no-such-flag"] })).rejects.toThrow(/exited .* before it was ready:\n[\s\S]*no-such-flag/);
  });
});
