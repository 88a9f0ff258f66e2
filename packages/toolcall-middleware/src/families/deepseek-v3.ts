// DeepSeek V3 (server only): `<｜begin▁of▁sentence｜>{system}<｜User｜>…<｜Assistant｜>…<｜end▁of▁sentence｜>`.
import type { ChatTemplate, ToolCall, ToolFraming } from "../types.ts";
import { pyJson } from "./py-json.ts";
import { labDefaults } from "./sampling.ts";
import { splitSystem } from "./split-system.ts";
import type { ModelFamily } from "./types.ts";

const BOS = "<｜begin▁of▁sentence｜>";
const EOS = "<｜end▁of▁sentence｜>";
const CALLS_BEGIN = "<｜tool▁calls▁begin｜>";
const CALLS_END = "<｜tool▁calls▁end｜>";
const OUTPUTS_BEGIN = "<｜tool▁outputs▁begin｜>";
const OUTPUTS_END = "<｜tool▁outputs▁end｜>";
const controlTokens = [BOS, EOS, "<｜User｜>", "<｜Assistant｜>", CALLS_BEGIN, CALLS_END, "<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>", "<｜tool▁sep｜>", OUTPUTS_BEGIN, OUTPUTS_END, "<｜tool▁output▁begin｜>", "<｜tool▁output▁end｜>"];

/** `<｜` in JSON is written `\u003c｜`: the same JSON, and no control token a value could forge. */
const inertJson = (json: string) => json.replaceAll("<｜", "\\u003c｜");

/** One call; `json` writes the arguments as the client sent them. */
const deepseekCall = (call: ToolCall, json: (value: unknown) => string) => `<｜tool▁call▁begin｜>function<｜tool▁sep｜>${call.name}\n\`\`\`json\n${inertJson(json(call.arguments))}\n\`\`\`<｜tool▁call▁end｜>`;

/** A turn's text, then its calls one a line in one block (R1-Distill's template: the arguments compact, as a JS client sends them). */
export const deepseekAssistant =
  (json: (value: unknown) => string = JSON.stringify): NonNullable<ToolFraming["renderAssistant"]> =>
  (message) =>
    message.toolCalls?.length ? `${message.content}${CALLS_BEGIN}${message.toolCalls.map((call) => deepseekCall(call, json)).join("\n")}${CALLS_END}` : message.content;

/**
 * DeepSeek V3's own writing of its tool calls (V3-0324's chat template, as vLLM's and SGLang's
 * V3 tool templates keep it): calls right after the reply's text, one a line, the arguments with
 * Python's spacing (`{"location": "Paris"}`: the templates' `tojson`, and what a Python client's
 * json.dumps sends); each result its own tool turn, consecutive outputs joined by a newline
 * (`<｜tool▁output▁end｜>\n<｜tool▁output▁begin｜>`, V3's join; R1's writes none), all between
 * <｜tool▁outputs▁begin｜> and <｜tool▁outputs▁end｜>, and the model answers right after them,
 * without an <｜Assistant｜> of its own. The template lists no tools: the protocol's tool section
 * stays in the system text. Every round of calls opens its own block, as V3-0324's template does.
 */
export const deepseekToolFraming: ToolFraming = {
  protocol: "deepseek-v3",
  toolResultRole: "tool",
  renderAssistant: deepseekAssistant(pyJson),
  renderToolResult: (message, escape = (text) => text) => `<｜tool▁output▁begin｜>${escape(message.content)}<｜tool▁output▁end｜>`,
};

const deepseekV3Template: ChatTemplate = {
  name: "deepseek-v3",
  stop: [EOS],
  controlTokens,
  toolFraming: deepseekToolFraming,
  render(messages, { addGenerationPrompt }) {
    const { system, turns } = splitSystem(messages);
    let out = BOS + (system ?? "");
    let inOutputs = false;
    for (const message of turns) {
      if (message.role === "tool") {
        out += (inOutputs ? "\n" : OUTPUTS_BEGIN) + message.content;
        inOutputs = true;
        continue;
      }
      if (inOutputs) out += OUTPUTS_END;
      // After tool outputs the model answers at once: no <｜Assistant｜> of its own.
      if (message.role === "assistant") out += `${inOutputs ? "" : "<｜Assistant｜>"}${message.content}${EOS}`;
      else out += `<｜User｜>${message.content}`;
      inOutputs = false;
    }
    if (inOutputs) out += OUTPUTS_END;
    else if (addGenerationPrompt) out += "<｜Assistant｜>";
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
