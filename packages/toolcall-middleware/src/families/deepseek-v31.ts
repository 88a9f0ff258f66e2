// DeepSeek V3.1 (deepseek-ai/DeepSeek-V3.1, -Terminus; server only), as its chat template writes it
// (fixture deepseek-ai-DeepSeek-V3.1.jinja):
//   <｜begin▁of▁sentence｜>{system}<｜User｜>…<｜Assistant｜></think><｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜><｜tool▁calls▁end｜><｜end▁of▁sentence｜>
//   <｜tool▁output▁begin｜>…<｜tool▁output▁end｜>{the answer, right after the outputs}<｜end▁of▁sentence｜>
// Its thinking switch is the generation prompt's `<think>` (on) or `</think>` (off, the template's default).
import type { ChatTemplate, ToolCall, ToolFraming, ToolSpec } from "../types.ts";
import { pyJson } from "./py-json.ts";
import { labDefaults } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";

const BOS = "<｜begin▁of▁sentence｜>";
const EOS = "<｜end▁of▁sentence｜>";
const USER = "<｜User｜>";
const ASSISTANT = "<｜Assistant｜>";
const CALLS_BEGIN = "<｜tool▁calls▁begin｜>";
const CALLS_END = "<｜tool▁calls▁end｜>";
const CALL_BEGIN = "<｜tool▁call▁begin｜>";
const CALL_END = "<｜tool▁call▁end｜>";
const SEP = "<｜tool▁sep｜>";
const OUTPUT_BEGIN = "<｜tool▁output▁begin｜>";
const OUTPUT_END = "<｜tool▁output▁end｜>";
const controlTokens = [BOS, EOS, USER, ASSISTANT, "<think>", "</think>", CALLS_BEGIN, CALLS_END, CALL_BEGIN, CALL_END, SEP, OUTPUT_BEGIN, OUTPUT_END];

/** `<｜` in JSON is written `\u003c｜`: the same JSON, and no control token a value could forge. */
const inertJson = (json: string) => json.replaceAll("<｜", "\\u003c｜");
/** Python's json.dumps: its separators, and every non-ASCII character as a \u escape. */
const pythonJsonDumps = (value: unknown) => pyJson(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/**
 * The tool description of DeepSeek V3.1's model card ("ToolCall"), which the caller puts in the
 * system prompt (`{system prompt}\n\n{tool_description}`): the chat template lists no tools. Each
 * tool's parameters are `json.dumps(parameters)`.
 */
export function deepseekV31ToolSection(tools: ToolSpec[]): string {
  return [
    "## Tools\nYou have access to the following tools:\n\n",
    ...tools.map((tool) => `### ${tool.name}\nDescription: ${tool.description}\n\nParameters: ${pythonJsonDumps(tool.parameters)}\n\n`),
    "IMPORTANT: ALWAYS adhere to this exact format for tool use:\n",
    `${CALLS_BEGIN}${CALL_BEGIN}tool_call_name${SEP}tool_call_arguments${CALL_END}{additional_tool_calls}${CALLS_END}\n\n`,
    "Where:\n",
    "- `tool_call_name` must be an exact match to one of the available tools\n",
    "- `tool_call_arguments` must be valid JSON that strictly follows the tool's Parameters Schema\n",
    "- For multiple tool calls, chain them directly without separators or spaces",
  ].join("");
}

/** A call as the template writes it: the name, then the arguments as the OpenAI client sends them (compact JSON). */
const v31Call = (call: ToolCall) => `${CALL_BEGIN}${call.name}${SEP}${inertJson(JSON.stringify(call.arguments))}${CALL_END}`;

/**
 * V3.1's writing of the deepseek-v3 protocol (whose parser reads V3.1's `NAME<｜tool▁sep｜>{…}`
 * form): the model card's tool description in the system text, calls chained without separators
 * after the reply's text, each result its own `<｜tool▁output▁begin｜>…<｜tool▁output▁end｜>` with
 * no block around them.
 */
export const deepseekV31ToolFraming: ToolFraming = {
  protocol: "deepseek-v3",
  toolSection: deepseekV31ToolSection,
  toolResultRole: "tool",
  renderAssistant: (message) => (message.toolCalls?.length ? `${message.content}${CALLS_BEGIN}${message.toolCalls.map(v31Call).join("")}${CALLS_END}` : message.content),
  renderToolResult: (message, escape = (text) => text) => `${OUTPUT_BEGIN}${escape(message.content)}${OUTPUT_END}`,
};

function deepseekV31Template(thinking: boolean): ChatTemplate {
  return {
    name: "deepseek-v3.1",
    stop: [EOS],
  controlTokens,
    toolFraming: deepseekV31ToolFraming,
    render(messages, { addGenerationPrompt }) {
      // Every system message goes first, joined by a blank line.
      let out = BOS + messages.filter((message) => message.role === "system").map((message) => message.content).join("\n\n");
      let lastIsUser = false;
      let afterTool = false;
      for (const message of messages) {
        if (message.role === "user") {
          out += USER + message.content;
          lastIsUser = true;
          afterTool = false;
        } else if (message.role === "tool") {
          out += message.content;
          lastIsUser = false;
          afterTool = true;
        } else if (message.role === "assistant") {
          // An assistant turn after the user's is opened non-thinking: the reasoning is not written back.
          if (lastIsUser) out += `${ASSISTANT}</think>`;
          const calls = message.content.includes(CALLS_BEGIN);
          // A reply's text after a `</think>` of its own is kept; an answer right after tool outputs is written as it is.
          const text = !calls && !afterTool && message.content.includes("</think>") ? message.content.slice(message.content.indexOf("</think>") + "</think>".length) : message.content;
          out += text + EOS;
          lastIsUser = false;
          afterTool = false;
        }
      }
      // After tool outputs the model answers at once, with no generation prompt of its own.
      if (addGenerationPrompt && lastIsUser && !afterTool) out += ASSISTANT + (thinking ? "<think>" : "</think>");
      return out;
    },
  };
}

export const deepseekV31: ModelFamily = {
  id: "deepseek-v3.1",
  label: "DeepSeek V3.1",
  templateName: "deepseek-v3.1",
  templateLabel: "DeepSeek V3.1",
  serverNames: /deepseek-v3\.1/i,
  template: ({ enableThinking }) => deepseekV31Template(enableThinking === true),
  // `thinking`; the template's default is off.
  thinking: { defaultOn: false },
  controlTokens,
  protocol: { trained: "deepseek-v3", fallback: "deepseek-v3", why: "DeepSeek V3.1 was trained on <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}, which the deepseek-v3 protocol reads" },
  sampling: () => labDefaults("DeepSeek V3.1"),
  kvState: "kv_cache",
  contextNotes: "131,072 tokens.",
};
