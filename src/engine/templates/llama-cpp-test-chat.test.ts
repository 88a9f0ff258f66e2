// llama.cpp's own model outputs (tests/test-chat.cpp, as data in llama-cpp-test-chat/cases.jsonl,
// source in its SOURCES.md) read by the protocol derived from each template, whole and in
// chunks of 1-4 characters, against the message llama.cpp's test expects its parser to read:
// the calls (names, arguments), the reply and the reasoning (trimmed; not where the case asks
// llama.cpp to leave reasoning in the reply, reasoning_format none). Where the template's
// generation prompt opens a reasoning block and thinking is on, the output begins inside it (the
// model continues the prompt); the derived opening tag is put back before it, since the lab's
// parser starts outside reasoning. Every template's counts are held below; `TEST_CHAT_TABLE=1`
// prints the table of docs/protocols.md, `TEST_CHAT_FAILURES=1` each case that differs.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chunksOf1To4 } from "toolcall-middleware/derive/round-trip.ts";
import { parseAll } from "toolcall-middleware/parser/collect.ts";
import type { ToolSpec } from "toolcall-middleware/types.ts";
import { deriveFromTemplate, type TemplateDerivation } from "./derived-from-template.ts";

interface TestChatCase {
  template: string;
  output: string;
  tools?: ToolSpec[];
  thinking?: boolean;
  reasoningFormat?: string;
  expected: { content: string; reasoning: string; calls: { name: string; arguments: string }[] };
}

const HERE = import.meta.dirname;
const CASES: TestChatCase[] = readFileSync(join(HERE, "llama-cpp-test-chat", "cases.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as TestChatCase);
const BUDGET = { milliseconds: 10_000, chars: 2_000_000, rangeItems: 100_000 };

/** Per template: cases, calls read as llama.cpp's test expects, and calls + reply + reasoning as expected. */
const EXPECTED: Record<string, string> = {
  "Apertus-8B-Instruct.jinja": "1: 1 calls, 1 all",
  "Apriel-1.6-15b-Thinker-fixed.jinja": "2: 2 calls, 0 all",
  "ByteDance-Seed-OSS.jinja": "6: not derived",
  "Cohere2MoE.jinja": "8: 8 calls, 7 all",
  "CohereForAI-c4ai-command-r-plus-tool_use.jinja": "2: 1 calls, 1 all",
  "CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja": "7: 7 calls, 6 all",
  "GLM-4.6.jinja": "1: 1 calls, 1 all",
  "GLM-4.7-Flash.jinja": "6: 6 calls, 6 all",
  "GigaChat3-10B-A1.8B.jinja": "3: 3 calls, 3 all",
  "GigaChat3.1-10B-A1.8B.jinja": "3: 3 calls, 3 all",
  "Kimi-K2-Instruct.jinja": "1: 1 calls, 1 all",
  "Kimi-K2-Thinking.jinja": "11: 10 calls, 10 all",
  "Kimi-K3.jinja": "9: 9 calls, 0 all",
  "LFM2.5-8B-A1B.jinja": "5: not derived",
  "MiniMax-M2.jinja": "4: 4 calls, 4 all",
  "MiniMax-M3.jinja": "19: not derived",
  "Mistral-Small-3.2-24B-Instruct-2506.jinja": "3: 3 calls, 3 all",
  "NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja": "7: 7 calls, 7 all",
  "NVIDIA-Nemotron-Nano-v2.jinja": "2: 0 calls, 0 all",
  "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja": "2: 2 calls, 2 all",
  "Qwen-QwQ-32B.jinja": "2: 2 calls, 2 all",
  "Qwen3-Coder.jinja": "22: 19 calls, 19 all",
  "Qwen3.5-4B.jinja": "18: 18 calls, 17 all",
  "Reka-Edge.jinja": "15: 14 calls, 10 all",
  "Spark2.5.jinja": "6: 6 calls, 6 all",
  "StepFun3.5-Flash.jinja": "11: 11 calls, 11 all",
  "deepseek-ai-DeepSeek-R1-Distill-Llama-8B.jinja": "2: not derived",
  "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja": "5: 4 calls, 3 all",
  "deepseek-ai-DeepSeek-V3.1.jinja": "5: 5 calls, 5 all",
  "deepseek-ai-DeepSeek-V3.2.jinja": "13: 13 calls, 13 all",
  "deepseek-ai-DeepSeek-V4-Flash-0731.jinja": "1: 1 calls, 1 all",
  "deepseek-ai-DeepSeek-V4.jinja": "8: 8 calls, 8 all",
  "fireworks-ai-llama-3-firefunction-v2.jinja": "2: not derived",
  "google-gemma-2-2b-it.jinja": "3: not derived",
  "google-gemma-4-31B-it.jinja": "24: not derived",
  "ibm-granite-granite-3.3-2B-Instruct.jinja": "2: not derived",
  "ibm-granite-granite-4.0.jinja": "2: 2 calls, 2 all",
  "ibm-granite-granite-4.1.jinja": "2: 2 calls, 2 all",
  "inclusionai-ling-3.0-flash.jinja": "12: 11 calls, 11 all",
  "llama-cpp-deepseek-r1.jinja": "3: 3 calls, 0 all",
  "meetkai-functionary-medium-v3.1.jinja": "2: 2 calls, 2 all",
  "meetkai-functionary-medium-v3.2.jinja": "2: not derived",
  "meta-llama-Llama-3.1-8B-Instruct.jinja": "1: 1 calls, 1 all",
  "meta-llama-Llama-3.2-3B-Instruct.jinja": "1: 1 calls, 1 all",
  "meta-llama-Llama-3.3-70B-Instruct.jinja": "1: 1 calls, 1 all",
  "mistralai-Ministral-3-14B-Reasoning-2512.jinja": "7: 6 calls, 5 all",
  "mistralai-Mistral-Nemo-Instruct-2407.jinja": "2: 2 calls, 2 all",
  "moonshotai-Kimi-K2.jinja": "1: 1 calls, 1 all",
  "muse-glimmer.jinja": "1: not derived",
  "openai-gpt-oss-120b.jinja": "13: 8 calls, 2 all",
  "openbmb-MiniCPM5-1B.jinja": "7: 6 calls, 6 all",
  "unsloth-Apriel-1.5.jinja": "2: 2 calls, 2 all",
  "unsloth-mistral-Devstral-Small-2507.jinja": "3: 3 calls, 3 all",
};

function arguments_(text: string): unknown {
  return text.trim() === "" ? {} : JSON.parse(text);
}

function readCase(derivation: Extract<TemplateDerivation, { ok: true }>, testCase: TestChatCase): { calls: boolean; all: boolean; first?: string } {
  const reasoning = derivation.format.reasoning;
  const opened = reasoning?.generationPromptOpens && testCase.thinking !== false && !testCase.output.trimStart().startsWith(reasoning.open);
  const text = opened ? `${reasoning.open}${testCase.output}` : testCase.output;
  const wanted = testCase.expected.calls.map((c) => ({ name: c.name, arguments: arguments_(c.arguments) }));
  let calls = true;
  let all = true;
  let first: string | undefined;
  for (const chunks of [[text], chunksOf1To4(text)]) {
    const read = parseAll(derivation.protocol, testCase.tools ?? [], chunks);
    const got = read.calls.map((c) => ({ name: c.name, arguments: c.arguments }));
    const callsAgree = JSON.stringify(got) === JSON.stringify(wanted) && read.errors.length === 0;
    const inline = testCase.reasoningFormat === "none";
    const textAgree = inline || (read.text.trim() === testCase.expected.content.trim() && (read.reasoning ?? "").trim() === testCase.expected.reasoning.trim());
    if (!callsAgree) calls = false;
    if (!callsAgree || !textAgree) {
      all = false;
      first ??= `ours read ${JSON.stringify({ text: read.text, reasoning: read.reasoning, calls: got, errors: read.errors.map((e) => e.message) }).slice(0, 200)}`;
    }
  }
  return { calls, all, ...(first ? { first } : {}) };
}

describe("llama.cpp's test-chat outputs read by the derived protocols", () => {
  const templates = [...new Set(CASES.map((c) => c.template))].sort();
  const rows = templates.map((template) => {
    const cases = CASES.filter((c) => c.template === template);
    const derivation = deriveFromTemplate(readFileSync(join(HERE, "llama-cpp-templates", template), "utf8"), template, BUDGET);
    if (!derivation.ok) return { template, cases: cases.length, result: "not derived", first: derivation.reason };
    const results = cases.map((c) => readCase(derivation, c));
    if (process.env.TEST_CHAT_FAILURES)
      results.forEach((r, i) => {
        if (!r.all) console.log(`${template} [${r.calls ? "text" : "calls"}] ${JSON.stringify(cases[i]!.output).slice(0, 160)} => ${r.first}`);
      });
    const calls = results.filter((r) => r.calls).length;
    const all = results.filter((r) => r.all).length;
    return { template, cases: cases.length, result: `${calls} calls, ${all} all`, first: results.find((r) => r.first)?.first };
  });

  it("holds llama.cpp's own cases as data", () => {
    expect(CASES.length).toBeGreaterThan(250);
  });

  it("reads each template's cases as recorded", () => {
    if (process.env.TEST_CHAT_TABLE) {
      console.log("| template | cases | calls as llama.cpp reads them | calls, reply and reasoning | first difference |");
      console.log("| --- | --- | --- | --- | --- |");
      for (const row of rows) {
        const [calls, all] = row.result === "not derived" ? ["—", "—"] : row.result.split(", ").map((p) => p.split(" ")[0]);
        console.log(`| ${row.template} | ${row.cases} | ${calls} | ${all} | ${row.first ? "`" + row.first.replace(/\|/g, "\\|").replace(/`/g, "'") + "`" : ""} |`);
      }
      console.log(JSON.stringify(Object.fromEntries(rows.map((r) => [r.template, `${r.cases}: ${r.result}`])), null, 2));
    }
    expect(Object.fromEntries(rows.map((r) => [r.template, `${r.cases}: ${r.result}`]))).toEqual(EXPECTED);
  });
});
