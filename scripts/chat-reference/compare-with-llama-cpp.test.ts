// The protocol derived from each of llama.cpp's vendor templates (fixtures:
// src/engine/templates/llama-cpp-templates, see its SOURCES.md) against llama.cpp's own reading of
// the same text: the template's own assistant turns (a reply alone; with one call; with two calls)
// read by the derived protocol (whole and in chunks of 1–4 characters) and by llama.cpp's
// common_chat_parse, with the parser common_chat_templates_apply built for the template, in
// chat-reference (scripts/chat-reference/chat-reference.cpp, built from llama-server's source by
// `npm run chat-reference`). EXPECTED is the table of docs/protocols.md ("Held against llama.cpp's
// own parser", printed by `npm run --silent compare-llama-cpp`); each template where the two do
// not agree is explained there.
//
// Without the build the tests skip with the reason. `npm test` does not build it: it is a second
// build of llama.cpp (about as long as llama-server's, over an hour on a busy 2-core machine),
// which CI's time cannot hold beside the rest; `npm run chat-reference` builds it once per machine.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ALPHA_CALL, assistantMessage, BETA_CALL, PROBE_TEXT, PROBE_TOOLS, PROBE_USER } from "toolcall-middleware/derive/probes.ts";
import { boundedTemplateRenderer } from "../../src/engine/templates/derived-from-template.ts";
import { chatReferenceForTests, runChatReference, type ChatReferenceRequest } from "./chat-reference.ts";
import { compareTemplate, firstDifference, templateFiles, TEMPLATE_FIXTURES, verdict, type Verdict } from "./compare-with-llama-cpp.ts";

const reference = chatReferenceForTests();
const missing = reference.run ? undefined : reference.why;
const binary = reference.run ? reference.binary : "";
const skipped = missing === undefined ? "" : ` (skipped: ${missing})`;

const EXPECTED: Record<string, Verdict> = {
  "Apertus-8B-Instruct.jinja": "llama.cpp refuses",
  "Apriel-1.6-15b-Thinker-fixed.jinja": "llama.cpp differs",
  "Bielik-11B-v3.0-Instruct.jinja": "llama.cpp differs",
  "ByteDance-Seed-OSS.jinja": "no turns",
  "Cohere2MoE.jinja": "agree",
  "CohereForAI-c4ai-command-r-plus-tool_use.jinja": "llama.cpp refuses",
  "CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja": "both differ",
  "GLM-4.6.jinja": "agree",
  "GLM-4.7-Flash.jinja": "agree",
  "GigaChat3-10B-A1.8B.jinja": "agree",
  "GigaChat3.1-10B-A1.8B.jinja": "agree",
  "HuggingFaceTB-SmolLM3-3B.jinja": "neither reads it",
  "Kimi-K2-Instruct.jinja": "agree",
  "Kimi-K2-Thinking.jinja": "agree",
  "Kimi-K3.jinja": "ours differs",
  "LFM2-8B-A1B.jinja": "neither reads it",
  "LFM2.5-8B-A1B.jinja": "only llama.cpp reads it",
  "LFM2.5-Instruct.jinja": "neither reads it",
  "MiMo-VL.jinja": "agree",
  "MiniMax-M1.jinja": "llama.cpp differs",
  "MiniMax-M2.jinja": "llama.cpp differs",
  "MiniMax-M3.jinja": "neither reads it",
  "Mistral-Small-3.2-24B-Instruct-2506.jinja": "agree",
  "NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja": "agree",
  "NVIDIA-Nemotron-Nano-v2.jinja": "llama.cpp differs",
  "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja": "agree",
  "NousResearch-Hermes-3-Llama-3.1-8B-tool_use.jinja": "agree",
  "Qwen-QwQ-32B.jinja": "llama.cpp differs",
  "Qwen-Qwen2.5-7B-Instruct.jinja": "agree",
  "Qwen-Qwen3-0.6B.jinja": "agree",
  "Qwen3-Coder.jinja": "agree",
  "Qwen3.5-4B.jinja": "agree",
  "Reka-Edge.jinja": "llama.cpp differs",
  "Spark2.5.jinja": "agree",
  "StepFun3.5-Flash.jinja": "agree",
  "deepseek-ai-DeepSeek-R1-Distill-Llama-8B.jinja": "neither reads it",
  "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja": "llama.cpp differs",
  "deepseek-ai-DeepSeek-V3.1.jinja": "llama.cpp differs",
  "deepseek-ai-DeepSeek-V3.2.jinja": "agree",
  "deepseek-ai-DeepSeek-V4-Flash-0731.jinja": "llama.cpp differs",
  "deepseek-ai-DeepSeek-V4.jinja": "llama.cpp differs",
  "fireworks-ai-llama-3-firefunction-v2.jinja": "no turns",
  "google-gemma-2-2b-it.jinja": "neither reads it",
  "google-gemma-4-31B-it-interleaved.jinja": "neither reads it",
  "google-gemma-4-31B-it.jinja": "neither reads it",
  "ibm-granite-granite-3.3-2B-Instruct.jinja": "neither reads it",
  "ibm-granite-granite-4.0.jinja": "agree",
  "ibm-granite-granite-4.1.jinja": "agree",
  "inclusionai-ling-3.0-flash.jinja": "agree",
  "llama-cpp-deepseek-r1.jinja": "both differ",
  "llama-cpp-rwkv-world.jinja": "neither reads it",
  "meetkai-functionary-medium-v3.1.jinja": "agree",
  "meetkai-functionary-medium-v3.2.jinja": "neither reads it",
  "meta-llama-Llama-3.1-8B-Instruct.jinja": "agree",
  "meta-llama-Llama-3.2-3B-Instruct.jinja": "agree",
  "meta-llama-Llama-3.3-70B-Instruct.jinja": "agree",
  "microsoft-Phi-3.5-mini-instruct.jinja": "neither reads it",
  "mistralai-Ministral-3-14B-Reasoning-2512.jinja": "agree",
  "mistralai-Mistral-Nemo-Instruct-2407.jinja": "agree",
  "moonshotai-Kimi-K2.jinja": "agree",
  "muse-glimmer.jinja": "only llama.cpp reads it",
  "openai-gpt-oss-120b.jinja": "llama.cpp refuses",
  "openbmb-MiniCPM5-1B.jinja": "llama.cpp differs",
  "poolside-Laguna-S-2.1.jinja": "agree",
  "poolside-Laguna-XS-2.1.jinja": "llama.cpp differs",
  "poolside-Laguna-XS.2.jinja": "llama.cpp differs",
  "tencent-Hy3.jinja": "llama.cpp differs",
  "unsloth-Apriel-1.5.jinja": "agree",
  "unsloth-mistral-Devstral-Small-2507.jinja": "agree",
  "upstage-Solar-Open-100B.jinja": "neither reads it",
};

describe.skipIf(missing !== undefined)(`chat-reference: llama.cpp's own rendering and parsing, as JSON${skipped}`, () => {
  it("renders a ChatML template with tools and reads a Hermes-style call from an output", async () => {
    const source = readFileSync(join(TEMPLATE_FIXTURES, "Qwen-Qwen2.5-7B-Instruct.jinja"), "utf8");
    const response = await runChatReference(binary, {
      template: source,
      messages: [{ role: "user", content: "Weather in Paris?" }],
      tools: [{ type: "function", function: { name: "get_weather", description: "Weather.", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } }],
      outputs: ['<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>', "Just text."],
    });
    expect("error" in response ? response.error : "").toBe("");
    if ("error" in response) return;
    expect(response.prompt).toContain("Weather in Paris?");
    expect(response.prompt).toContain('"name": "get_weather"');
    expect(response.prompt.endsWith(response.generation_prompt)).toBe(true);
    expect(response.has_parser).toBe(true);
    // The arguments are handed on as the model wrote them (its spacing kept), as llama-server does.
    expect(response.parses).toEqual([
      { content: "", reasoning_content: "", tool_calls: [{ name: "get_weather", arguments: '{"city": "Paris"}' }] },
      { content: "Just text.", reasoning_content: "", tool_calls: [] },
    ]);
  });

  it("answers a template that is not Jinja with llama.cpp's error, not a crash", async () => {
    const response = await runChatReference(binary, { template: "{% if %}", messages: [{ role: "user", content: "Hi" }], outputs: [] });
    expect("error" in response && response.error.length > 0).toBe(true);
  });
});

describe.skipIf(missing !== undefined)(`protocols derived from llama.cpp's vendor templates, held against llama.cpp's own parser${skipped}`, () => {
  const files = templateFiles();
  it("has an expected result for every template fixture", () => {
    expect(files).toEqual(Object.keys(EXPECTED).sort());
  });
  for (const file of files) {
    it(`${file}: ${EXPECTED[file]}`, async () => {
      const comparison = await compareTemplate(binary, file, readFileSync(join(TEMPLATE_FIXTURES, file), "utf8"));
      expect(verdict(comparison), firstDifference(comparison)).toBe(EXPECTED[file]);
    });
  }
});

/**
 * Templates the lab's renderer renders only with the Jinja2 behaviours it supplies
 * (src/engine/cpu/jinja-python-compat.ts; arguments as JSON text for functionary v3.2): their
 * prompt for a reply and two calls is llama.cpp's, character for character. MiniCPM5 writes
 * non-string argument values with `{{ }}`, which the lab leaves as @huggingface/jinja writes them
 * (`true`), where llama.cpp writes `True`: it is held to differ there and nowhere before.
 */
const RENDERED_AS_LLAMA_CPP = [
  "Apriel-1.6-15b-Thinker-fixed.jinja",
  "Kimi-K2-Instruct.jinja",
  "Kimi-K2-Thinking.jinja",
  "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja",
  "meetkai-functionary-medium-v3.2.jinja",
  "tencent-Hy3.jinja",
  "unsloth-Apriel-1.5.jinja",
];

describe.skipIf(missing !== undefined)(`the lab's renderer and llama.cpp's write the same prompt${skipped}`, () => {
  const tools = PROBE_TOOLS as unknown as ChatReferenceRequest["tools"];
  const calls = assistantMessage(PROBE_TEXT, [ALPHA_CALL, BETA_CALL]);
  // llama.cpp takes OpenAI's messages (arguments as JSON text) and gives objects to the templates that read them so.
  const asOpenAi = { ...calls, tool_calls: (calls.tool_calls as { function: { arguments: unknown } }[]).map((call) => ({ ...call, function: { ...call.function, arguments: JSON.stringify(call.function.arguments) } })) };
  const prompts = async (file: string) => {
    const source = readFileSync(join(TEMPLATE_FIXTURES, file), "utf8");
    const messages = [{ role: "user", content: PROBE_USER }];
    const response = await runChatReference(binary, { template: source, messages: [...messages, asOpenAi] as ChatReferenceRequest["messages"], tools, outputs: [] });
    if ("error" in response) throw new Error(response.error);
    const ours = boundedTemplateRenderer(source, file, { milliseconds: 10_000, chars: 2_000_000, rangeItems: 100_000 })({ messages: [...messages, calls], tools: PROBE_TOOLS, add_generation_prompt: true, bos_token: "", eos_token: "" });
    return { ours, llamaCpp: response.prompt };
  };
  for (const file of RENDERED_AS_LLAMA_CPP) {
    it(`${file}: a reply and two calls`, async () => {
      const { ours, llamaCpp } = await prompts(file);
      expect(ours).toBe(llamaCpp);
    });
  }
  it("openbmb-MiniCPM5-1B.jinja: the same up to the first non-string argument value", async () => {
    const { ours, llamaCpp } = await prompts("openbmb-MiniCPM5-1B.jinja");
    const differsAt = [...ours].findIndex((char, i) => char !== llamaCpp[i]);
    expect(ours.slice(0, differsAt).endsWith('<param name="flag_arg">')).toBe(true);
    expect([ours.slice(differsAt, differsAt + 4), llamaCpp.slice(differsAt, differsAt + 4)]).toEqual(["true", "True"]);
  });
});
