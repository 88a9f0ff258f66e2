// gpt-oss (openai/gpt-oss-20b, -120b; server only): OpenAI's harmony format as its Hugging Face chat
// template writes it (fixture openai-gpt-oss-120b.jinja):
//   <|start|>system<|message|>You are ChatGPT, …\nKnowledge cutoff: 2024-06\nCurrent date: …\n\nReasoning: medium\n\n# Valid channels: …<|end|>
//   <|start|>developer<|message|># Instructions\n\n{system prompt}\n\n# Tools\n\n## functions\n\nnamespace functions { … } // namespace functions<|end|>
//   <|start|>user<|message|>…<|end|><|start|>assistant to=functions.NAME<|channel|>commentary json<|message|>{…}<|call|>
//   <|start|>functions.NAME to=assistant<|channel|>commentary<|message|>"…"<|end|><|start|>assistant
// The conversation's system prompt is the developer message's "# Instructions"; the system message
// is the template's own (identity, dates, reasoning effort).
import type { ChatTemplate, TemplateMessage, ToolCall, ToolFraming } from "../types.ts";
import { TOOLS_HEAD } from "../protocols/harmony/tool-section.ts";
import { protectJson } from "../protocols/protect-markers.ts";
import { pyJson } from "./py-json.ts";
import { penaltiesOff, THINKING_MAX_TOKENS } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";

const START = "<|start|>";
const END = "<|end|>";
const MESSAGE = "<|message|>";
const CALL = "<|call|>";
const RETURN = "<|return|>";
const controlTokens = [START, END, MESSAGE, "<|channel|>", "<|constrain|>", CALL, RETURN];

/** What the template adds to its system message when tools are offered. */
const CALLS_TO_FUNCTIONS = "\nCalls to these tools must go to the commentary channel: 'functions'.";
/** A call as the template writes it back, after its `<|start|>assistant to=`. */
const CALL_HEAD = (name: string) => `functions.${name}<|channel|>commentary json${MESSAGE}`;
const ANALYSIS = `<|channel|>analysis${MESSAGE}`;

const callText = (call: ToolCall) => `${CALL_HEAD(call.name)}${protectJson(pyJson(call.arguments))}${CALL}`;

/**
 * How the template writes the harmony protocol back. A turn with calls is each call after
 * `<|start|>assistant to=` (written by the template below; this text holds only the markers the
 * model itself writes in a call, so the model-text escaping leaves them be), its text before the
 * calls an analysis message, as the template writes an assistant message's content beside its
 * calls. Where the template writes only the first call of a turn and names every result after it
 * ("We assume max 1 tool call per message"), the lab writes each call and names each result
 * after its own tool, as harmony has one message per call. Results go back JSON-encoded, as the
 * template's `message.content|tojson` writes them.
 */
export const gptOssToolFraming: ToolFraming = {
  protocol: "harmony",
  systemHeader: CALLS_TO_FUNCTIONS,
  toolResultRole: "tool",
  renderAssistant: (message) => {
    const calls = message.toolCalls ?? [];
    if (calls.length === 0) return message.content;
    return (message.content ? `${ANALYSIS}${message.content}` : "") + calls.map(callText).join("");
  },
  renderToolResult: (message, escape = (text) => text) => `functions.${message.name} to=assistant<|channel|>commentary${MESSAGE}${JSON.stringify(escape(message.content))}`,
};

/** The calls of a call turn, each `functions.NAME…<|call|>`, and the analysis text written before them. */
function splitCallTurn(content: string): { analysis?: string; calls: string[] } {
  let rest = content;
  let analysis: string | undefined;
  if (rest.startsWith(ANALYSIS)) {
    const first = rest.search(/functions\.[^<\s]*<\|channel\|>commentary json<\|message\|>/);
    analysis = rest.slice(ANALYSIS.length, first < 0 ? rest.length : first);
    rest = first < 0 ? "" : rest.slice(first);
  }
  const calls = rest.split(CALL).filter((part) => part !== "").map((part) => part + CALL);
  return { ...(analysis !== undefined ? { analysis } : {}), calls };
}

const isCallTurn = (message: TemplateMessage) => message.role === "assistant" && message.content.endsWith(CALL);
const today = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
};

/**
 * The lab's thinking switch as the template's reasoning_effort: gpt-oss always reasons; "low" is
 * the least it does ("off" writes low), "medium" is the template's default (on, or unset).
 */
export const reasoningEffort = (enableThinking?: boolean) => (enableThinking === false ? "low" : "medium");

function gptOssTemplate(enableThinking?: boolean): ChatTemplate {
  const effort = reasoningEffort(enableThinking);
  return {
    name: "gpt-oss",
    // <|call|> ends a turn that calls a tool, <|return|> the final answer.
    stop: [RETURN, CALL],
  controlTokens,
    toolFraming: gptOssToolFraming,
    render(messages, { addGenerationPrompt }) {
      const system = messages[0]?.role === "system" ? messages[0] : undefined;
      const turns = system ? messages.slice(1) : messages;
      const tools = system?.header !== undefined;
      let out = `${START}system${MESSAGE}You are ChatGPT, a large language model trained by OpenAI.\nKnowledge cutoff: 2024-06\nCurrent date: ${today()}\n\n`;
      out += `Reasoning: ${effort}\n\n# Valid channels: analysis, commentary, final. Channel must be included for every message.${system?.header ?? ""}${END}`;
      const text = system?.content ?? "";
      if (tools) out += `${START}developer${MESSAGE}${text.startsWith(TOOLS_HEAD) ? "" : "# Instructions\n\n"}${text}${END}`;
      else if (text !== "") out += `${START}developer${MESSAGE}# Instructions\n\n${text}\n\n${END}`;
      for (const [i, message] of turns.entries()) {
        if (message.role === "user") out += `${START}user${MESSAGE}${message.content}${END}`;
        else if (message.role === "tool") out += `${START}${message.content}${END}`;
        else if (message.role === "assistant" && isCallTurn(message)) {
          // The analysis beside a call is kept until a final answer follows, as the template does.
          const answered = turns.slice(i + 1).some((later) => later.role === "assistant" && !isCallTurn(later));
          const { analysis, calls } = splitCallTurn(message.content);
          if (!answered) for (const thought of [message.reasoning, analysis]) if (thought) out += `${START}assistant${ANALYSIS}${thought}${END}`;
          for (const call of calls) out += `${START}assistant to=${call}`;
        } else if (message.role === "assistant") out += `${START}assistant<|channel|>final${MESSAGE}${message.content}${END}`;
      }
      if (addGenerationPrompt) out += `${START}assistant`;
      return out;
    },
  };
}

export const gptOss: ModelFamily = {
  id: "gpt-oss",
  label: "gpt-oss",
  templateName: "gpt-oss",
  templateLabel: "gpt-oss (harmony)",
  serverNames: /gpt-oss/i,
  template: ({ enableThinking }) => gptOssTemplate(enableThinking),
  // Reasoning effort: low with the switch off, the template's medium with it on (its default).
  thinking: { defaultOn: true },
  controlTokens,
  protocol: { trained: "harmony", fallback: "harmony", why: "gpt-oss was trained on OpenAI's harmony format (to=functions.NAME on the commentary channel)" },
  // OpenAI's gpt-oss README recommends temperature 1.0 and top_p 1.0; the model always reasons.
  sampling: (thinking) => ({
    label: `gpt-oss, reasoning ${reasoningEffort(thinking)}`,
    source: "gpt-oss's model card (temperature 1.0, top_p 1.0)",
    maxTokens: THINKING_MAX_TOKENS,
    temperature: 1,
    topP: 1,
    ...penaltiesOff,
  }),
  kvState: "kv_cache",
  contextNotes: "131,072 tokens.",
};
