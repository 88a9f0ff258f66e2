// Gemma 4 (E2B it in WebLLM's list; E4B, 26B A4B, 31B on servers): Google's new turn tokens
// (<|turn>role … <turn|>, a real system role), a thinking switch, and the gemma4 tool format the
// models were trained on (`<|tool>declaration:…<tool|>` in the system turn, `<|tool_call>call:f{…}
// <tool_call|>`, `<|tool_response>response:f{value:…}<tool_response|>`). Checked against the chat
// template llama.cpp keeps as models/templates/gemma4.jinja (packages/toolcall-middleware/src/families/fixtures/, see
// SOURCES.md) in src/engine/templates/parity-gemma.test.ts.
import type { ChatTurns, TemplateMessage, ToolFraming } from "../types.ts";
import { chatTurnsOf } from "./chat-path.ts";
import { convTurns, type ConvTemplate, type FamilyRules, type RenderOptions, type TurnWriter } from "./conv-template.ts";
import { penaltiesOff, REPLY_MAX_TOKENS, THINKING_MAX_TOKENS } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";
import { toolResultEscaper } from "../protocols/escape-tool-result.ts";
import { jsonResultValue } from "./json-result.ts";

const BOS = "<bos>";
const TURN_END = "<turn|>\n";
const MODEL_TURN = "<|turn>model\n";
/** What the template writes for the model when thinking is off: an empty thought channel. */
const EMPTY_THOUGHT = "<|channel>thought\n<channel|>";
/** Opens the system turn when thinking is on. */
const THINK = "<|think|>";
const TOOL_RESPONSE = "<|tool_response>";

export const GEMMA4_TOKENS = [
  BOS,
  "<eos>",
  "<|turn>",
  "<turn|>",
  THINK,
  "<|channel>",
  "<channel|>",
  "<|tool>",
  "<tool|>",
  "<|tool_call>",
  "<tool_call|>",
  "<|tool_response>",
  "<tool_response|>",
  '<|"|>',
];

/**
 * The lab's conv_template for Gemma 4, the one WebLLM's chat path is loaded with. mlc-llm's own
 * `gemma4_instruction` (a fork's copy, perryosacode/gemma-4-model
 * python/mlc_llm/conversation_template/gemma.py; not in mlc-ai/mlc-llm's snapshot here, and the
 * mlc-chat-config.json of mlc-ai's E2B build could not be read) has the same turns and stops but
 * writes the system text bare; this one writes it as the template's system turn. Its empty-reply
 * separator carries the empty thought channel: the chat path writes thinking off only.
 */
const conv: ConvTemplate = {
  name: "gemma4_instruction",
  system_template: "<|turn>system\n{system_message}<turn|>\n",
  system_message: "",
  render_empty_system_message: false,
  roles: { user: "<|turn>user", assistant: "<|turn>model" },
  seps: [TURN_END],
  role_content_sep: "\n",
  role_empty_sep: `\n${EMPTY_THOUGHT}`,
  stop_str: ["<turn|>"],
  // <eos>, <turn|>, and <|tool_response>: after its calls the model writes <|tool_response> and
  // stops, for the host to write the results into the same turn.
  stop_token_ids: [1, 106, 50],
  system_prefix_token_ids: [2],
};

const rules: FamilyRules = { trimContent: true };

/**
 * Gemma 4's prompt as its template writes it: `<bos>`, a system turn when there is a system text
 * or tools or thinking is on (then opened by <|think|>), user and model turns, and a model turn's
 * tool results written into that same turn right after its calls (the template's
 * `tool_responses`), the reply after them continuing it. The generation prompt opens a model turn
 * unless the results left one open, then the empty thought channel when thinking is off (the
 * template's default).
 */
export function renderGemma4(messages: TemplateMessage[], options: RenderOptions): string {
  const thinking = options.enableThinking === true;
  const { systemMessage, turns } = convTurns(conv, messages, rules);
  const rest = messages[0]?.role === "system" ? messages.slice(1) : messages;
  let out = BOS;
  // The current template writes a newline after <|think|> (its first release wrote none).
  if (thinking || systemMessage !== "") out += `<|turn>system\n${thinking ? `${THINK}\n` : ""}${systemMessage}${TURN_END}`;
  // The thought of a turn that made calls after the last user message is kept (the current template's reasoning guard).
  const lastUser = rest.findLastIndex((message) => message.role === "user");
  // Only Gemma 4's own results (the gemma4 protocol's <|tool_response> blocks) continue the model's
  // turn; another protocol's tool-turn results get a user turn (the template has no tool role).
  const roleOf = (i: number) => {
    const message = rest[i];
    return message?.role === "tool" && !turns[i]!.text.startsWith(TOOL_RESPONSE) ? "user" : message?.role;
  };
  let open = false;
  turns.forEach(({ text }, i) => {
    const role = roleOf(i)!;
    const next = roleOf(i + 1);
    if (role === "assistant" || role === "tool") {
      if (!open) out += MODEL_TURN;
      const reasoning = role === "assistant" && i > lastUser && text.startsWith("<|tool_call>") ? rest[i]!.reasoning : undefined;
      if (reasoning) out += `${EMPTY_THOUGHT.replace("<channel|>", "")}${reasoning}\n<channel|>`;
      out += text;
      // Results continue the turn of the calls they answer, and the model's next words continue
      // it too (as it generates them; gemma4.jinja opens a new model turn for a next call
      // message, its interleaved variant does not). A user turn after results closes the turn,
      // which the template leaves open.
      open = next === "tool" || (role === "tool" && (next === "assistant" || next === undefined));
      if (!open) out += TURN_END;
      return;
    }
    out += `<|turn>user\n${text}${TURN_END}`;
  });
  // After results the model generates on in its open turn: the template's current version writes
  // nothing there (its first release wrote the empty thought channel after them too).
  if (options.addGenerationPrompt && !open) out += MODEL_TURN + (thinking ? "" : EMPTY_THOUGHT);
  return out;
}

/**
 * WebLLM's chat path writes every message as a turn of its own and the empty thought channel as
 * the reply header, which its KV cache then keeps before the reply; the template drops it from an
 * earlier model turn (and a thought), and writes results into the model's turn. So the chat path
 * says Gemma 4's prompt, and its cache the next one, only for a conversation's first step with
 * thinking off; the other steps take the raw path (a full prefill).
 */
function gemma4ChatTurns(messages: TemplateMessage[], enableThinking: boolean | undefined): ChatTurns | undefined {
  if (enableThinking === true || messages.some((message) => message.role === "tool" || message.role === "assistant")) return undefined;
  return chatTurnsOf(conv, convTurns(conv, messages, rules), BOS, undefined);
}

const writer: TurnWriter = { render: renderGemma4, chatTurns: gemma4ChatTurns };

/**
 * The template's own writing of the gemma4 protocol: the tool declarations right after the
 * system text (no blank line), results in the model's turn. The protocol's own calls, results
 * and declarations are the template's already.
 */
export const gemma4ToolFraming: ToolFraming = {
  protocol: "gemma4",
  systemJoin: "",
  toolResultRole: "tool",
  renderToolResult: (message, escape = toolResultEscaper([])) => {
    const json = jsonResultValue(message.content, escape);
    const value = json?.value;
    const body = json && isMapping(value) ? responseFields(value) : `{value:${gemmaResultValue(json ? value : escape(message.content))}}`;
    return `${TOOL_RESPONSE}response:${message.name}${body}<tool_response|>`;
  },
};

const QUOTE = '<|"|>';
const isMapping = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * A result's value in Gemma's own syntax, as the template's format_argument writes a tool
 * response (keys bare and sorted, strings between <|"|>, numbers and booleans bare); its strings
 * are escaped already.
 */
function gemmaResultValue(value: unknown): string {
  if (typeof value === "string") return `${QUOTE}${value}${QUOTE}`;
  if (Array.isArray(value)) return `[${value.map(gemmaResultValue).join(",")}]`;
  if (isMapping(value)) return responseFields(value);
  return String(value);
}

/** `{key:value,…}`, keys sorted as the template's dictsort sorts them. */
function responseFields(value: Record<string, unknown>): string {
  return `{${Object.keys(value)
    .sort()
    .map((key) => `${key}:${gemmaResultValue(value[key])}`)
    .join(",")}}`;
}

export const gemma4: ModelFamily = {
  id: "gemma4",
  label: "Gemma 4",
  templateName: "gemma4_instruction",
  templateLabel: "Gemma 4 (<|turn>, thinking switch, gemma4 calls)",
  webllmIds: /^gemma-4-/i,
  webllmModels: {
    // paramsB: E2B has 2.3B "effective" parameters and per-layer embeddings besides, 5.1B in all
    // (as guides quote Google's model card; not read from this build). The download estimate counts them all.
    records: [
      { model_id: "gemma-4-E2B-it-q4f16_1-MLC", model: "gemma-4-E2B-it-q4f16_1-MLC", model_lib: "gemma-4-E2B-it-q4f16_1_cs512-webgpu.wasm", vram_required_MB: 3387.37, low_resource_required: false, overrides: { context_window_size: 4096 }, paramsB: 5.1 },
      { model_id: "gemma-4-E2B-it-q4f32_1-MLC", model: "gemma-4-E2B-it-q4f32_1-MLC", model_lib: "gemma-4-E2B-it-q4f32_1_cs512-webgpu.wasm", vram_required_MB: 3862.72, low_resource_required: false, overrides: { context_window_size: 4096 }, paramsB: 5.1 },
    ],
    promptStart: "<bos><|turn>system\nS<turn|>\n<|turn>user\n",
    endTokens: ["<turn|>", "<eos>", "<|tool_response>"],
  },
  catalogLabel: "Gemma 4",
  // google/gemma-4-E2B-it, gemma-4-31B-it, unsloth/gemma-4-E4B-it-GGUF, "gemma4:e2b" (Ollama);
  // not MedGemma 4B ("medgemma-4b-it", a Gemma 3).
  serverNames: /gemma-?4(?=$|[-_:/\s])/i,
  conv: { template: conv, extras: { prefixText: BOS, extraStop: ["<eos>", "<|tool_response>"], controlTokens: GEMMA4_TOKENS, supportsThinkingToggle: true, rules, toolFraming: gemma4ToolFraming, writer } },
  // enable_thinking; the template writes thinking off unless it is set.
  thinking: { defaultOn: false },
  controlTokens: GEMMA4_TOKENS,
  protocol: { trained: "gemma4", fallback: "pythonic", why: "Gemma 4 was trained on its own <|tool_call>call:f{…} format" },
  // Google's values for Gemma 4 (temperature 1.0, top_p 0.95, top_k 64, with thinking on and off)
  // as guides quote its model card; the card itself is not in this workplace's sources. top_k is
  // not a setting the lab sends.
  sampling: (thinking) => ({
    label: thinking ? "Gemma 4, thinking on" : "Gemma 4",
    source: "Google's recommended values for Gemma 4 as third-party guides quote the model card (not read here)",
    maxTokens: thinking ? THINKING_MAX_TOKENS : REPLY_MAX_TOKENS,
    temperature: 1.0,
    topP: 0.95,
    ...penaltiesOff,
  }),
  kvState: "kv_cache",
  contextNotes:
    "128K tokens native for E2B as guides quote the model card (not read here); WebLLM's E2B builds run 4,096 (prefill chunk 512). The tool section of the eight built-in tools fits (tool-prompt-size.test.ts). WebLLM's chat path covers a conversation's first step with thinking off; later steps are prefilled whole (no KV reuse: the template drops the empty thought channel WebLLM's cache keeps).",
};
