// DeepSeek V3 (server only): `<｜begin▁of▁sentence｜>{system}<｜User｜>…<｜Assistant｜>…<｜end▁of▁sentence｜>`.
import type { ChatTemplate } from "../middleware/types.ts";
import { labDefaults } from "./sampling.ts";
import { splitSystem } from "./split-system.ts";
import type { ModelFamily } from "./types.ts";

const BOS = "<｜begin▁of▁sentence｜>";
const EOS = "<｜end▁of▁sentence｜>";
const controlTokens = [BOS, EOS, "<｜User｜>", "<｜Assistant｜>"];

const deepseekV3Template: ChatTemplate = {
  name: "deepseek-v3",
  stop: [EOS],
  controlTokens,
  render(messages, { addGenerationPrompt }) {
    const { system, turns } = splitSystem(messages);
    let out = BOS + (system ?? "");
    for (const message of turns) out += message.role === "assistant" ? `<｜Assistant｜>${message.content}${EOS}` : `<｜User｜>${message.content}`;
    if (addGenerationPrompt) out += "<｜Assistant｜>";
    return out;
  },
};

export const deepseekV3: ModelFamily = {
  id: "deepseek-v3",
  label: "DeepSeek V3",
  templateName: "deepseek-v3",
  templateLabel: "DeepSeek V3",
  serverNames: /deepseek/i,
  template: () => deepseekV3Template,
  controlTokens,
  protocol: { trained: "deepseek-v3", fallback: "deepseek-v3", why: "DeepSeek V3 was trained on its <｜tool▁calls▁begin｜> format" },
  sampling: () => labDefaults("DeepSeek V3"),
  kvState: "kv_cache",
  contextNotes: "131,072 tokens.",
};
