// Salesforce xLAM-2 (server only), trained on the xlam protocol (a JSON array of calls as the
// whole reply). Two templates, after vLLM's examples/tool_chat_template_xlam_{llama,qwen}.jinja
// (fixtures/): Llama-xLAM-2-8b / 70b in Llama 3's header turns (results in an `ipython` turn), and
// xLAM-2-1b / 3b / 32b (Qwen2.5-based) in ChatML (results in a `tool` turn).
// The registered protocols (not the registry of built-ins): a prompt is rendered only through
// renderPrompt, whose module loads the built-in protocols, so this family file need not.
import { getProtocol } from "../protocols/registered-protocols.ts";
import type { ChatTemplate, TemplateMessage, ToolFraming, ToolSpec } from "../types.ts";
import { labDefaults } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";

const DEFAULT_SYSTEM = "You are a helpful assistant. You are developed by Salesforce xLAM team.";
const FORMAT_INSTRUCTION =
  'You have access to a set of tools. When using tools, make calls in a single JSON array: \n\n[{"name": "tool_call_name", "arguments": {"arg1": "value1", "arg2": "value2"}}, ... (additional parallel tool calls as needed)]\n\n' +
  "If no tool is suitable, state that explicitly. If the user's input lacks required parameters, ask for clarification. Do not interpret or respond until tool results are returned. Once they are available, process them or make additional calls if needed. For tasks that don't require tools, such as casual conversation or general advice, respond directly in plain text. The available tools are:";

/** A tool as `tojson(indent=4)` writes it (JSON.stringify's indentation is the same). */
const toolJson = (tool: ToolSpec) => JSON.stringify({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } }, null, 4);

/**
 * xLAM's own writing of the xlam protocol: the format instruction and the tools (each indented
 * JSON and a blank line) in the system turn; a turn with calls is the call array alone (the
 * template drops the turn's text); each result its own tool turn.
 */
export const xlamToolFraming: ToolFraming = {
  protocol: "xlam",
  toolResultRole: "tool",
  toolSection: (tools) => `${FORMAT_INSTRUCTION}\n\n${tools.map((tool) => `${toolJson(tool)}\n\n`).join("")}`,
  renderAssistant: (message) => {
    const protocol = getProtocol("xlam");
    if (!message.toolCalls?.length || !protocol) return message.content.trim();
    // The protocol's array (its escaping of markers in values included), without the turn's text.
    return protocol.renderAssistant({ ...message, content: "" });
  },
};

/**
 * The system turn's text: with a system prompt, that prompt and the tools (the template leaves
 * out its format instruction then); without one, xLAM's default, the instruction and the tools.
 */
function xlamSystem(system: TemplateMessage | undefined): string {
  const content = system?.role === "system" ? system.content : "";
  const at = content.lastIndexOf(FORMAT_INSTRUCTION);
  const own = (at < 0 ? content : content.slice(0, at)).trim();
  const tools = at < 0 ? "" : content.slice(at + FORMAT_INSTRUCTION.length + 2);
  if (own !== "") return `${own}\n${tools}`;
  return `${DEFAULT_SYSTEM}\n${at < 0 ? "" : `${FORMAT_INSTRUCTION}\n\n${tools}`}`;
}

interface Turns {
  bos: string;
  open: (role: string) => string;
  close: string;
  resultRole: string;
}

function xlamTemplate(name: string, turns: Turns, stop: string[], controlTokens: string[]): ChatTemplate {
  return {
    name,
    stop,
    controlTokens,
    toolFraming: xlamToolFraming,
    render(messages, { addGenerationPrompt }) {
      const first = messages[0];
      let out = `${turns.bos}${turns.open("system")}${xlamSystem(first)}${turns.close}`;
      for (const message of first?.role === "system" ? messages.slice(1) : messages) {
        // Every turn's text trimmed but a result's.
        if (message.role === "tool") out += `${turns.open(turns.resultRole)}${message.content}${turns.close}`;
        else out += `${turns.open(message.role)}${message.content.trim()}${turns.close}`;
      }
      if (addGenerationPrompt) out += turns.open("assistant");
      return out;
    },
  };
}

const llamaTokens = ["<|begin_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>", "<|eom_id|>"];
const chatmlTokens = ["<|im_start|>", "<|im_end|>", "<|endoftext|>"];
const why = "xLAM-2 was trained on a JSON array of calls as the whole reply";

export const xlamLlama: ModelFamily = {
  id: "xlam-llama",
  label: "xLAM-2 (Llama)",
  templateName: "xlam-llama",
  templateLabel: "xLAM-2 on Llama 3 (header turns, call arrays)",
  serverNames: /llama-xlam/i,
  template: () => xlamTemplate("xlam-llama", { bos: "<|begin_of_text|>", open: (role) => `<|start_header_id|>${role}<|end_header_id|>\n\n`, close: "<|eot_id|>", resultRole: "ipython" }, ["<|eot_id|>", "<|eom_id|>"], llamaTokens),
  controlTokens: llamaTokens,
  protocol: { trained: "xlam", fallback: "llama3-json", why },
  sampling: () => labDefaults("xLAM-2"),
  kvState: "kv_cache",
  contextNotes: "Llama 3.1's 131,072 tokens (not checked on xLAM's config here).",
};

export const xlamQwen: ModelFamily = {
  id: "xlam-qwen",
  label: "xLAM-2 (Qwen)",
  templateName: "xlam-qwen",
  templateLabel: "xLAM-2 on Qwen2.5 (ChatML, call arrays)",
  serverNames: /xlam/i,
  template: () => xlamTemplate("xlam-qwen", { bos: "", open: (role) => `<|im_start|>${role}\n`, close: "<|im_end|>\n", resultRole: "tool" }, ["<|im_end|>", "<|endoftext|>"], chatmlTokens),
  controlTokens: chatmlTokens,
  protocol: { trained: "xlam", fallback: "hermes", why },
  sampling: () => labDefaults("xLAM-2"),
  kvState: "kv_cache",
  contextNotes: "Qwen2.5's 32,768 tokens (not checked on xLAM's config here).",
};
