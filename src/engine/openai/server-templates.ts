// The chat templates prompt mode can render for a model on a server. The lab renders the prompt
// itself and sends it raw to /v1/completions, so it must use the template the served model was
// trained on: inferred from the model's name where the family is clear, chosen by the person
// otherwise. Families WebLLM also runs reuse their conv templates; Mistral and DeepSeek V3, which
// WebLLM's list lacks, are written here after their Hugging Face chat templates (plain turns;
// tool calls and results are the protocol's text, and a result is a user turn as in ChatML).
import type { ChatTemplate, TemplateMessage } from "../../middleware/types.ts";
import { chatTemplateFromConv } from "../templates/conv-template.ts";
import { convTemplateExtras, convTemplates, type ConvTemplateName } from "../templates/model-templates.ts";

export type ServerTemplateName = ConvTemplateName | "mistral" | "deepseek-v3";

export const serverTemplateLabels: Record<ServerTemplateName, string> = {
  qwen3: "Qwen3 (ChatML, think blocks)",
  qwen2: "Qwen2 / Qwen2.5 (ChatML)",
  "llama-3_1": "Llama 3.1 / 3.2",
  "hermes3_llama-3_1": "Hermes 3 (ChatML on Llama 3)",
  chatml: "ChatML (generic)",
  "phi-3": "Phi-3 / 3.5",
  gemma_instruction: "Gemma",
  mistral: "Mistral ([INST])",
  "deepseek-v3": "DeepSeek V3",
};

export const serverTemplateNames = Object.keys(serverTemplateLabels) as ServerTemplateName[];

/** The template a served model's name points to, or undefined when the family is not clear. */
export function inferServerTemplate(modelName: string): ServerTemplateName | undefined {
  const name = modelName.toLowerCase();
  if (/qwen-?3/.test(name)) return "qwen3";
  if (/qwen-?2/.test(name) || /qwq/.test(name)) return "qwen2";
  if (/hermes/.test(name)) return "hermes3_llama-3_1";
  if (/llama-?3/.test(name)) return "llama-3_1";
  if (/mistral|mixtral|ministral|codestral/.test(name)) return "mistral";
  if (/deepseek/.test(name)) return "deepseek-v3";
  if (/phi-?3/.test(name)) return "phi-3";
  if (/gemma/.test(name)) return "gemma_instruction";
  if (/smollm/.test(name)) return "chatml";
  return undefined;
}

export function serverChatTemplate(name: ServerTemplateName, settings: { enableThinking?: boolean } = {}): ChatTemplate {
  if (name === "mistral") return mistralTemplate;
  if (name === "deepseek-v3") return deepseekV3Template;
  return chatTemplateFromConv(convTemplates[name], convTemplateExtras[name], settings);
}

/** A system message the template has no slot for goes before the first user turn's text. */
function splitSystem(messages: TemplateMessage[]): { system: string | undefined; turns: TemplateMessage[] } {
  const first = messages[0];
  return first?.role === "system" ? { system: first.content, turns: messages.slice(1) } : { system: undefined, turns: messages };
}

// Mistral's v3 instruct format: `<s>[INST] user[/INST] reply</s>`; the system text is put in
// front of the last user message, as Mistral's own template does.
const mistralTemplate: ChatTemplate = {
  name: "mistral",
  stop: ["</s>"],
  controlTokens: ["<s>", "</s>", "[INST]", "[/INST]", "[TOOL_CALLS]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]", "[TOOL_RESULTS]", "[/TOOL_RESULTS]"],
  // The reply follows [/INST] directly: there is no generation prompt to add.
  render(messages) {
    const { system, turns } = splitSystem(messages);
    const lastUser = turns.findLastIndex((m) => m.role !== "assistant");
    let out = "<s>";
    turns.forEach((message, i) => {
      if (message.role === "assistant") {
        out += ` ${message.content}</s>`;
        return;
      }
      const text = i === lastUser && system ? `${system}\n\n${message.content}` : message.content;
      out += `[INST] ${text}[/INST]`;
    });
    return out;
  },
};

// DeepSeek V3: `<｜begin▁of▁sentence｜>{system}<｜User｜>…<｜Assistant｜>…<｜end▁of▁sentence｜>`.
const BOS = "<｜begin▁of▁sentence｜>";
const EOS = "<｜end▁of▁sentence｜>";
const deepseekV3Template: ChatTemplate = {
  name: "deepseek-v3",
  stop: [EOS],
  controlTokens: [BOS, EOS, "<｜User｜>", "<｜Assistant｜>"],
  render(messages, { addGenerationPrompt }) {
    const { system, turns } = splitSystem(messages);
    let out = BOS + (system ?? "");
    for (const message of turns) out += message.role === "assistant" ? `<｜Assistant｜>${message.content}${EOS}` : `<｜User｜>${message.content}`;
    if (addGenerationPrompt) out += "<｜Assistant｜>";
    return out;
  },
};
