// Every vendor template of llama.cpp's models/templates/ (fixtures: llama-cpp-templates/, see its
// SOURCES.md): a protocol is derived from it, then the template's own assistant turns (one call;
// two calls where it writes two; a reply before them) are read back with it, whole and streamed
// in chunks of 1–4 characters. EXPECTED is the table of docs/protocols.md ("Formats derived
// from a template"); each template that does not pass says why there.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeDerivedFormat } from "toolcall-middleware/derive/describe-format.ts";
import { roundTrip, ROUND_TRIP_TOOLS, chunksOf1To4 } from "toolcall-middleware/derive/round-trip.ts";
import { templateAssistantOutput } from "toolcall-middleware/derive/template-output.ts";
import { parseAll } from "toolcall-middleware/parser/collect.ts";
import { getProtocol } from "toolcall-middleware/protocols/registry.ts";
import { deriveFromTemplate } from "./derived-from-template.ts";

const DIR = join(import.meta.dirname, "llama-cpp-templates");
/** A generous time bound: the machine is shared and a test never races the clock; the page's bound is TEMPLATE_RENDER_BUDGET. */
const BUDGET = { milliseconds: 10_000, chars: 2_000_000, rangeItems: 100_000 };

type Expected = "pass" | "fails" | "cannot derive";

const EXPECTED: Record<string, Expected> = {
  "Apertus-8B-Instruct.jinja": "pass",
  "Apriel-1.6-15b-Thinker-fixed.jinja": "pass",
  "Bielik-11B-v3.0-Instruct.jinja": "pass",
  "ByteDance-Seed-OSS.jinja": "cannot derive",
  "Cohere2MoE.jinja": "pass",
  "CohereForAI-c4ai-command-r-plus-tool_use.jinja": "fails",
  "CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja": "fails",
  "GLM-4.6.jinja": "pass",
  "GLM-4.7-Flash.jinja": "pass",
  "GigaChat3-10B-A1.8B.jinja": "pass",
  "GigaChat3.1-10B-A1.8B.jinja": "pass",
  "HuggingFaceTB-SmolLM3-3B.jinja": "cannot derive",
  "Kimi-K2-Instruct.jinja": "pass",
  "Kimi-K2-Thinking.jinja": "pass",
  "Kimi-K3.jinja": "fails",
  "LFM2-8B-A1B.jinja": "cannot derive",
  "LFM2.5-8B-A1B.jinja": "cannot derive",
  "LFM2.5-Instruct.jinja": "cannot derive",
  "MiMo-VL.jinja": "pass",
  "MiniMax-M1.jinja": "pass",
  "MiniMax-M2.jinja": "pass",
  "MiniMax-M3.jinja": "cannot derive",
  "Mistral-Small-3.2-24B-Instruct-2506.jinja": "pass",
  "NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja": "pass",
  "NVIDIA-Nemotron-Nano-v2.jinja": "pass",
  "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja": "pass",
  "NousResearch-Hermes-3-Llama-3.1-8B-tool_use.jinja": "pass",
  "Qwen-QwQ-32B.jinja": "pass",
  "Qwen-Qwen2.5-7B-Instruct.jinja": "pass",
  "Qwen-Qwen3-0.6B.jinja": "pass",
  "Qwen3-Coder.jinja": "pass",
  "Qwen3.5-4B.jinja": "pass",
  "Reka-Edge.jinja": "pass",
  "Spark2.5.jinja": "pass",
  "StepFun3.5-Flash.jinja": "pass",
  "deepseek-ai-DeepSeek-R1-Distill-Llama-8B.jinja": "cannot derive",
  "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja": "pass",
  "deepseek-ai-DeepSeek-V3.1.jinja": "pass",
  "deepseek-ai-DeepSeek-V3.2.jinja": "pass",
  "deepseek-ai-DeepSeek-V4-Flash-0731.jinja": "pass",
  "deepseek-ai-DeepSeek-V4.jinja": "pass",
  "fireworks-ai-llama-3-firefunction-v2.jinja": "cannot derive",
  "google-gemma-2-2b-it.jinja": "cannot derive",
  "google-gemma-4-31B-it-interleaved.jinja": "cannot derive",
  "google-gemma-4-31B-it.jinja": "cannot derive",
  "ibm-granite-granite-3.3-2B-Instruct.jinja": "cannot derive",
  "ibm-granite-granite-4.0.jinja": "pass",
  "ibm-granite-granite-4.1.jinja": "pass",
  "inclusionai-ling-3.0-flash.jinja": "pass",
  "llama-cpp-deepseek-r1.jinja": "fails",
  "llama-cpp-rwkv-world.jinja": "cannot derive",
  "meetkai-functionary-medium-v3.1.jinja": "pass",
  "meetkai-functionary-medium-v3.2.jinja": "cannot derive",
  "meta-llama-Llama-3.1-8B-Instruct.jinja": "pass",
  "meta-llama-Llama-3.2-3B-Instruct.jinja": "pass",
  "meta-llama-Llama-3.3-70B-Instruct.jinja": "pass",
  "microsoft-Phi-3.5-mini-instruct.jinja": "cannot derive",
  "mistralai-Ministral-3-14B-Reasoning-2512.jinja": "pass",
  "mistralai-Mistral-Nemo-Instruct-2407.jinja": "pass",
  "moonshotai-Kimi-K2.jinja": "pass",
  "muse-glimmer.jinja": "cannot derive",
  "openai-gpt-oss-120b.jinja": "fails",
  "openbmb-MiniCPM5-1B.jinja": "pass",
  "poolside-Laguna-S-2.1.jinja": "pass",
  "poolside-Laguna-XS-2.1.jinja": "pass",
  "poolside-Laguna-XS.2.jinja": "pass",
  "tencent-Hy3.jinja": "pass",
  "unsloth-Apriel-1.5.jinja": "pass",
  "unsloth-mistral-Devstral-Small-2507.jinja": "pass",
  "upstage-Solar-Open-100B.jinja": "cannot derive",
};

const files = readdirSync(DIR).filter((f) => f.endsWith(".jinja")).sort();
const source = (file: string) => readFileSync(join(DIR, file), "utf8");

describe("protocols derived from llama.cpp's vendor templates", () => {
  it("has an expected result for every template kept as a fixture, and a fixture for every expected result", () => {
    expect(files).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const file of files) {
    it(`${file}: ${EXPECTED[file]}`, () => {
      const derived = deriveFromTemplate(source(file), file, BUDGET);
      if (EXPECTED[file] === "cannot derive") {
        expect(derived.ok).toBe(false);
        if (!derived.ok) expect(derived.reason).toMatch(/^cannot derive: \S/);
        return;
      }
      expect(derived.ok, derived.ok ? "" : derived.reason).toBe(true);
      if (!derived.ok) return;
      expect(describeDerivedFormat(derived.format)[0]).toMatch(/^A call is /);
      const cases = roundTrip(derived.render, derived.format, derived.protocol);
      const failures = cases.filter((c) => c.failure !== undefined).map((c) => c.failure);
      if (EXPECTED[file] === "pass") expect(failures).toEqual([]);
      else expect(failures.length).toBeGreaterThan(0);
    });
  }
});

/**
 * Hand-written protocols and the template their format comes from. The last field says whether
 * the derived protocol reads what the hand-written one writes back into the history: llama3-json
 * writes `<|python_tag|>` before its JSON, which Llama 3.1's template writes only for its built-in
 * tools, so the format derived from the template does not have it.
 */
const TWINS: [protocol: string, template: string, readsHandWriting: boolean][] = [
  ["hermes", "Qwen-Qwen2.5-7B-Instruct.jinja", true],
  ["qwen3-coder", "Qwen3-Coder.jinja", true],
  ["glm45", "GLM-4.6.jinja", true],
  ["kimi-k2", "moonshotai-Kimi-K2.jinja", true],
  ["minimax-m2", "MiniMax-M2.jinja", true],
  ["deepseek-v3", "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja", true],
  ["mistral", "mistralai-Mistral-Nemo-Instruct-2407.jinja", true],
  ["llama3-json", "meta-llama-Llama-3.1-8B-Instruct.jinja", false],
];

const summary = (result: ReturnType<typeof parseAll>) => ({ calls: result.calls.map((c) => ({ name: c.name, arguments: c.arguments })), text: result.text.trim() });

describe("hand-written protocols agree with their derived twins", () => {
  const calls = [
    { name: "get_weather", arguments: { city: "Paris", unit: "celsius" } },
    { name: "add_numbers", arguments: { a: 2, b: 3.5, flags: [true, false], meta: { x: null } } },
  ];
  for (const [name, file, readsHandWriting] of TWINS) {
    it(`${name} and the protocol derived from ${file} read the template's turns and each other's alike`, () => {
      const derived = deriveFromTemplate(source(file), file, BUDGET);
      expect(derived.ok).toBe(true);
      if (!derived.ok) return;
      const handWritten = getProtocol(name);
      if (!handWritten) throw new Error(`no protocol ${name}`);
      const turns = derived.format.oneCallPerTurn ? [calls.slice(0, 1)] : [calls.slice(0, 1), calls];
      for (const turn of turns) {
        const tools = ROUND_TRIP_TOOLS.map((t) => ({ type: "function", function: t }));
        const output = templateAssistantOutput(derived.render, "", turn, tools);
        const byDerived = summary(parseAll(derived.protocol, ROUND_TRIP_TOOLS, chunksOf1To4(output)));
        // The calls (the text around them is the round trip's business: R1's template writes its end-of-sentence token after them).
        expect(summary(parseAll(handWritten, ROUND_TRIP_TOOLS, chunksOf1To4(output))).calls).toEqual(byDerived.calls);
        expect(byDerived.calls).toEqual(turn);
        // The hand-written protocol's own writing, read by the derived one.
        const written = handWritten.renderAssistant({ role: "assistant", content: "", toolCalls: turn.map((c, i) => ({ id: `c${i}`, ...c })) } as never);
        const read = summary(parseAll(derived.protocol, ROUND_TRIP_TOOLS, chunksOf1To4(written))).calls;
        if (readsHandWriting) expect(read).toEqual(turn);
        else expect(read).not.toEqual(turn);
      }
    });
  }
});

describe("a template that cannot be derived from leaves a reason, within the renderer's bounds", () => {
  it("a template that loops is stopped by the render budget", () => {
    const looping = "{% for i in range(90000) %}{% for j in range(90000) %}{% endfor %}{% endfor %}";
    const derived = deriveFromTemplate(looping, "looping.jinja", { milliseconds: 50, chars: 2_000_000, rangeItems: 100_000 });
    expect(derived.ok).toBe(false);
    if (!derived.ok) expect(derived.reason).toMatch(/^cannot derive: .*time budget of 50 ms/);
  });

  it("a template whose text explodes is stopped by the size bound", () => {
    const exploding = "{% set s = 'xxxxxxxxxx' %}{% for i in range(40) %}{% set s = s + s %}{% endfor %}{{ s }}";
    const derived = deriveFromTemplate(exploding, "exploding.jinja", BUDGET);
    expect(derived.ok).toBe(false);
    if (!derived.ok) expect(derived.reason).toMatch(/^cannot derive: .*longer than its bound/);
  });

  it("a source that is not Jinja, or empty, says so", () => {
    const broken = deriveFromTemplate("{% if %}", "broken.jinja", BUDGET);
    expect(broken.ok === false && broken.reason).toMatch(/^cannot derive: the template is not valid Jinja/);
    const empty = deriveFromTemplate("  ", "empty.jinja", BUDGET);
    expect(empty.ok === false && empty.reason).toBe("cannot derive: the template is empty");
  });
});
