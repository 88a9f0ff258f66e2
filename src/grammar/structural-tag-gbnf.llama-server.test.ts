// Every protocol's structural tag as a llama.cpp grammar (GBNF) against llama-server itself — the
// registered protocols and those derived from llama.cpp's vendor templates (fixtures:
// src/engine/templates/llama-cpp-templates/) whose format has a structural tag:
// the grammar is accepted (a bad one is refused with an error), its lazy form too, and a short
// completion at temperature 0 with SmolLM2, constrained to call get_weather, parses with that
// protocol's own parser into a valid call of get_weather (asserted on the parse, not on words).
// In CI a missing model or binary fails (realModelsForTests); elsewhere the suite skips, saying why.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { familyById, familyChatTemplate } from "toolcall-middleware/families/registry.ts";
import { structuralTagToGbnf } from "toolcall-middleware/grammar/structural-tag-gbnf.ts";
import { renderPrompt } from "toolcall-middleware/loop/render-conversation.ts";
import { parseAll } from "toolcall-middleware/parser/collect.ts";
import { listProtocols } from "toolcall-middleware/protocols/registry.ts";
import type { ToolSpec } from "toolcall-middleware/types.ts";
import { realModelsForTests, startLlamaServer, type LlamaServer } from "../../scripts/real-models/llama-server-process.ts";
import { deriveFromTemplate } from "../engine/templates/derived-from-template.ts";

const MODEL = "smollm2-135m-instruct-q4_1";
const real = realModelsForTests([MODEL]);

const tools: ToolSpec[] = [
  { name: "get_weather", description: "Current weather for a city.", parameters: { type: "object", properties: { city: { type: "string", description: "City name", maxLength: 40 }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } }, required: ["city"] } },
  { name: "add", description: "Adds two numbers.", parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } },
];

const TEMPLATES = join(import.meta.dirname, "..", "engine", "templates", "llama-cpp-templates");
/** The command's time bound, not the page's: which templates derive must not depend on this machine's load. */
const DERIVE_BUDGET = { milliseconds: 10_000, chars: 2_000_000, rangeItems: 100_000 };
const derivedWithTags = readdirSync(TEMPLATES)
  .filter((file) => file.endsWith(".jinja"))
  .sort()
  .flatMap((file) => {
    const derivation = deriveFromTemplate(readFileSync(join(TEMPLATES, file), "utf8"), file, DERIVE_BUDGET);
    return derivation.ok && derivation.protocol.structuralTag ? [derivation.protocol] : [];
  });

/**
 * Protocols whose own argument grammar lets a string run past its closing delimiter, so a small
 * model may never close it: FunctionGemma's g_string (`"<escape>" ([^<] | "<" [^|])* "<escape>"`)
 * accepts "<escape>" inside the string. Seen here: SmolLM2 wrote `city:<escape>Paris,description:
 * <escape>Paris,…` until max tokens. The same grammar runs on XGrammar (WebLLM).
 */
const UNCLOSABLE_STRINGS = new Set(["functiongemma"]);

/**
 * Derived formats whose reader does not read their own writing (derived-structural-tag.test.ts):
 * Command R+'s section opens with `Action:\n```json\n[` and the scanner takes the fence in it for
 * the section's close. The grammar is accepted and a constrained completion follows it, but no
 * call is read from it; asserted so, so that a fix shows here.
 */
const OWN_WRITING_NOT_READ = new Set(["template:CohereForAI-c4ai-command-r-plus-tool_use.jinja"]);

/** llama-server's lazy-grammar fields: each trigger a word (type 1); a one-token word must also be a preserved token. */
function lazyTriggers(triggers: string[]): Record<string, unknown> {
  return { grammar_triggers: triggers.map((value) => ({ type: 1, value })), preserved_tokens: triggers };
}

interface Completion {
  content: string;
  stop_type?: string;
}

async function complete(server: LlamaServer, body: Record<string, unknown>): Promise<{ status: number; json: Completion & { error?: { message?: string } } }> {
  const response = await fetch(`${server.url}/completion`, { method: "POST", headers: { ...server.headers, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Completion & { error?: { message?: string } } };
}

describe.skipIf(!real.run)(`structural tags as GBNF on llama-server${real.run ? "" : ` (skipped: ${real.why})`}`, () => {
  let server: LlamaServer;
  const template = familyChatTemplate(familyById("smollm2")!);

  beforeAll(async () => {
    server = await startLlamaServer({ modelId: MODEL, port: 8513, contextSize: 4096, threads: 1 });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("refuses a grammar that is not GBNF, with an error", async () => {
    const { status, json } = await complete(server, { prompt: "Hi", n_predict: 1, grammar: "root ::= missing_rule_" });
    expect(status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(json)).toMatch(/grammar/i);
  });

  it("has formats derived from templates with grammars to check", () => {
    expect(derivedWithTags.length).toBeGreaterThanOrEqual(40);
  });

  for (const protocol of [...listProtocols(), ...derivedWithTags]) {
    const completion = UNCLOSABLE_STRINGS.has(protocol.name) ? "" : OWN_WRITING_NOT_READ.has(protocol.name) ? "; a constrained completion follows the grammar but is not read back" : "; a constrained completion is a valid get_weather call";
    it(`${protocol.name}: the plain and lazy grammars are accepted${completion}`, async () => {
      const auto = structuralTagToGbnf(protocol.structuralTag!(tools, "auto"));
      const plain = await complete(server, { prompt: "Hi", n_predict: 2, temperature: 0, grammar: auto.grammar });
      expect(plain.status, JSON.stringify(plain.json)).toBe(200);
      const lazy = await complete(server, { prompt: "Hi", n_predict: 2, temperature: 0, grammar: auto.lazy!.grammar, grammar_lazy: true, ...lazyTriggers(auto.lazy!.triggers) });
      expect(lazy.status, JSON.stringify(lazy.json)).toBe(200);

      // One call of get_weather, then the end (stop_after_first): what follows a call is free text
      // the grammar does not judge, and a 135M model fills it with anything.
      if (UNCLOSABLE_STRINGS.has(protocol.name)) return;
      const named = protocol.structuralTag!(tools, { name: "get_weather" });
      const forced = structuralTagToGbnf({ ...named, format: { ...named.format, stop_after_first: true } as typeof named.format });
      const prompt = renderPrompt({ tools, protocol, template, messages: [{ role: "user", content: "What is the weather in Paris? Use the tool." }] }).prompt;
      const { status, json } = await complete(server, { prompt, n_predict: 200, temperature: 0, grammar: forced.grammar, cache_prompt: false });
      expect(status, JSON.stringify(json)).toBe(200);
      const parsed = parseAll(protocol, tools, [json.content]);
      if (OWN_WRITING_NOT_READ.has(protocol.name)) {
        expect(json.content.startsWith("Action:\n```json\n["), json.content).toBe(true);
        expect(parsed.calls, json.content).toEqual([]);
        return;
      }
      expect(parsed.errors, json.content).toEqual([]);
      expect(parsed.calls.map((call) => call.name), json.content).toEqual(["get_weather"]);
      expect(typeof parsed.calls[0]!.arguments.city, json.content).toBe("string");
    }, 120_000);
  }
});
