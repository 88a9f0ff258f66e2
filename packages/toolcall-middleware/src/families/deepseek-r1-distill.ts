// DeepSeek-R1-Distill (Qwen 1.5B–32B and Llama 8B/70B fine-tuned on R1's reasoning; WebLLM
// 0.2.86 ships Qwen-7B and Llama-8B): DeepSeek's <｜User｜>/<｜Assistant｜> turns, and a model that
// always thinks (<think>…</think> before its answer). It was not trained on a tool format of its
// own, but its chat template writes DeepSeek's tool markers (calls, outputs): the deepseek-v3
// protocol, with the template's writing of calls and outputs, is the nearest.
import type { ToolFraming } from "../types.ts";
import type { ConvTemplate } from "./conv-template.ts";
import { deepseekAssistant, deepseekToolFraming } from "./deepseek-v3.ts";
import { penaltiesOff, THINKING_MAX_TOKENS } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";

const BOS = "<｜begin▁of▁sentence｜>";
const EOS = "<｜end▁of▁sentence｜>";
const controlTokens = [BOS, EOS, "<｜User｜>", "<｜Assistant｜>", "<think>", "</think>", "<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>", "<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>", "<｜tool▁sep｜>", "<｜tool▁outputs▁begin｜>", "<｜tool▁outputs▁end｜>", "<｜tool▁output▁begin｜>", "<｜tool▁output▁end｜>"];

/**
 * The template's calls (right after <｜Assistant｜>, the arguments as the client sent them) and
 * outputs (one <｜tool▁output▁begin｜>…<｜tool▁output▁end｜> each, a newline between them, all
 * between <｜tool▁outputs▁begin｜> and <｜tool▁outputs▁end｜>: the protocol's join). The template
 * writes the outputs right after the call turn and lets the model answer after them; an mlc
 * conv_template cannot say that, so the lab writes them as a <｜User｜> turn and opens the answer
 * with <｜Assistant｜> (the tests state both differences).
 */
export const deepseekR1DistillToolFraming: ToolFraming = {
  protocol: "deepseek-v3",
  renderAssistant: deepseekAssistant(),
  renderToolResult: deepseekToolFraming.renderToolResult!,
};

/**
 * mlc-llm's deepseek_r1_qwen / deepseek_r1_llama (conversation_template/deepseek.py), which differ
 * only in the stop token, with one change: mlc's default system message ("You are Deepseek-R1, an
 * AI assistant created exclusively by the Chinese Company DeepSeek…") is not written: DeepSeek's
 * template writes none (and its usage notes advise against a system prompt).
 */
function r1DistillConv(name: string, stopTokenId: number): ConvTemplate {
  return {
    name,
    system_template: `${BOS}{system_message}`,
    system_message: "",
    roles: { user: "<｜User｜>", assistant: "<｜Assistant｜>" },
    seps: ["", EOS],
    role_content_sep: "",
    role_empty_sep: "",
    stop_str: [EOS],
    stop_token_ids: [stopTokenId],
  };
}

/** DeepSeek's usage recommendations for the R1 series: temperature 0.5–0.7 (0.6), top-p 0.95. */
const sampling = (label: string) => () => ({ label, source: "DeepSeek-R1-Distill's model card (temperature 0.6, top-p 0.95)", maxTokens: THINKING_MAX_TOKENS, temperature: 0.6, topP: 0.95, ...penaltiesOff });

const shared = {
  controlTokens,
  protocol: { trained: "deepseek-v3", fallback: "deepseek-v3", why: "no trained tool format; its chat template writes DeepSeek's tool-call markers, which the deepseek-v3 protocol reads" },
  kvState: "kv_cache",
} as const;

export const deepseekR1DistillQwen: ModelFamily = {
  ...shared,
  id: "deepseek-r1-distill-qwen",
  label: "DeepSeek-R1-Distill-Qwen",
  templateName: "deepseek_r1_qwen",
  templateLabel: "DeepSeek-R1-Distill (Qwen)",
  webllmIds: /^deepseek-r1-distill-qwen-/i,
  serverNames: /deepseek-r1-distill-qwen/i,
  conv: { template: r1DistillConv("deepseek_r1_qwen", 151643), extras: { controlTokens, extraStop: [EOS], toolFraming: deepseekR1DistillToolFraming } },
  sampling: sampling("DeepSeek-R1-Distill-Qwen"),
  contextNotes: "131,072 tokens native; WebLLM's build (7B) runs 4,096, which a long think block fills quickly.",
};

export const deepseekR1DistillLlama: ModelFamily = {
  ...shared,
  id: "deepseek-r1-distill-llama",
  label: "DeepSeek-R1-Distill-Llama",
  templateName: "deepseek_r1_llama",
  templateLabel: "DeepSeek-R1-Distill (Llama)",
  webllmIds: /^deepseek-r1-distill-llama-/i,
  serverNames: /deepseek-r1-distill-llama/i,
  conv: { template: r1DistillConv("deepseek_r1_llama", 128001), extras: { controlTokens, extraStop: [EOS], toolFraming: deepseekR1DistillToolFraming } },
  sampling: sampling("DeepSeek-R1-Distill-Llama"),
  contextNotes: "131,072 tokens native; WebLLM's build (8B) runs 4,096, which a long think block fills quickly.",
};
