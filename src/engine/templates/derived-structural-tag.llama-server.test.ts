// The grammars of formats derived from llama.cpp's vendor templates (fixtures:
// llama-cpp-templates/) against llama-server itself: each plain and lazy grammar is accepted, and
// a completion at temperature 0 with SmolLM2, constrained to call get_weather in that format, is
// read by the derived protocol as a valid get_weather call (asserted on the parse, not on words).
// In CI a missing model or binary fails (realModelsForTests); elsewhere the suite skips, saying why.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { familyById, familyChatTemplate } from "toolcall-middleware/families/registry.ts";
import { structuralTagToGbnf } from "toolcall-middleware/grammar/structural-tag-gbnf.ts";
import { renderPrompt } from "toolcall-middleware/loop/render-conversation.ts";
import { parseAll } from "toolcall-middleware/parser/collect.ts";
import type { ToolSpec } from "toolcall-middleware/types.ts";
import { realModelsForTests, startLlamaServer, type LlamaServer } from "../../../scripts/real-models/llama-server-process.ts";
import { deriveFromTemplate } from "./derived-from-template.ts";

const MODEL = "smollm2-135m-instruct-q4_1";
const real = realModelsForTests([MODEL]);
const DIR = join(import.meta.dirname, "llama-cpp-templates");
const BUDGET = { milliseconds: 10_000, chars: 2_000_000, rangeItems: 100_000 };

const tools: ToolSpec[] = [
  { name: "get_weather", description: "Current weather for a city.", parameters: { type: "object", properties: { city: { type: "string", description: "City name", maxLength: 40 }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } }, required: ["city"] } },
  { name: "add", description: "Adds two numbers.", parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } },
];

const withTags = readdirSync(DIR)
  .filter((file) => file.endsWith(".jinja"))
  .sort()
  .flatMap((file) => {
    const derivation = deriveFromTemplate(readFileSync(join(DIR, file), "utf8"), file, BUDGET);
    return derivation.ok && derivation.protocol.structuralTag ? [{ file, protocol: derivation.protocol }] : [];
  });

async function complete(server: LlamaServer, body: Record<string, unknown>): Promise<{ status: number; json: { content: string; error?: unknown } }> {
  const response = await fetch(`${server.url}/completion`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as { content: string; error?: unknown } };
}

describe.skipIf(!real.run)(`derived formats' grammars on llama-server${real.run ? "" : ` (skipped: ${real.why})`}`, () => {
  let server: LlamaServer;
  const template = familyChatTemplate(familyById("smollm2")!);

  beforeAll(async () => {
    server = await startLlamaServer({ modelId: MODEL, port: 8514, contextSize: 4096, threads: 1 });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("has derived formats with grammars to check", () => {
    expect(withTags.length).toBeGreaterThanOrEqual(20);
  });

  for (const { file, protocol } of withTags) {
    it(`${file}: the plain and lazy grammars are accepted; a constrained completion is a valid get_weather call`, async () => {
      const auto = structuralTagToGbnf(protocol.structuralTag!(tools, "auto"));
      const plain = await complete(server, { prompt: "Hi", n_predict: 2, temperature: 0, grammar: auto.grammar });
      expect(plain.status, JSON.stringify(plain.json)).toBe(200);
      const lazy = await complete(server, { prompt: "Hi", n_predict: 2, temperature: 0, grammar: auto.lazy!.grammar, grammar_lazy: true, grammar_triggers: auto.lazy!.triggers.map((value) => ({ type: 1, value })), preserved_tokens: auto.lazy!.triggers });
      expect(lazy.status, JSON.stringify(lazy.json)).toBe(200);

      const named = protocol.structuralTag!(tools, { name: "get_weather" });
      const forced = structuralTagToGbnf({ ...named, format: { ...named.format, stop_after_first: true } as typeof named.format });
      const prompt = renderPrompt({ tools, protocol, template, messages: [{ role: "user", content: "What is the weather in Paris? Use the tool." }] }).prompt;
      const { status, json } = await complete(server, { prompt, n_predict: 160, temperature: 0, grammar: forced.grammar, cache_prompt: false });
      expect(status, JSON.stringify(json)).toBe(200);
      const parsed = parseAll(protocol, tools, [json.content]);
      expect(parsed.errors, json.content).toEqual([]);
      expect(parsed.calls.map((call) => call.name), json.content).toEqual(["get_weather"]);
      expect(typeof parsed.calls[0]!.arguments.city, json.content).toBe("string");
    }, 120_000);
  }
});
