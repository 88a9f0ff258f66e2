// GLM-4.5 / 4.5-Air / 4.6, and GLM-4.7 below (server only): `[gMASK]<sop>` then `<|system|>`, `<|user|>`,
// `<|assistant|>` and `<|observation|>` turns, each opened by its token and a line break; think
// blocks; trained on the glm45 protocol (`<tool_call>NAME` and <arg_key>/<arg_value> pairs).
// Written after zai-org's GLM-4.6 chat template (fixtures/zai-org-GLM-4.6.jinja); GLM-4.5's own
// writes the same (llama.cpp's edit of it, glm_4_5.jinja, drops some line breaks: see the parity test).
import { encodeMarkerEscapes } from "../protocols/protect-markers.ts";
import type { ChatTemplate, ToolCall, ToolFraming, ToolSpec } from "../types.ts";
import { pyJson } from "./py-json.ts";
import { labDefaults, THINKING_MAX_TOKENS } from "./sampling.ts";
import type { ModelFamily } from "./types.ts";

const controlTokens = ["[gMASK]", "<sop>", "<|system|>", "<|user|>", "<|assistant|>", "<|observation|>", "<|endoftext|>", "<think>", "</think>", "<tool_call>", "</tool_call>", "<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>", "<tool_response>", "</tool_response>"];

/** The end of GLM's tool section (its call example); the system text, if any, follows it. */
const TOOL_SECTION_END = "<arg_value>{arg-value-2}</arg_value>\n...\n</tool_call>";

const toolJson = (tool: ToolSpec) => pyJson({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } });

/** One call as GLM's template writes it: a value that is not a string as `tojson` writes it; markers in keys and values broken as the protocol does. */
function glmCall(call: ToolCall): string {
  const args = Object.entries(call.arguments).map(
    ([key, value]) => `<arg_key>${encodeMarkerEscapes(key)}</arg_key>\n<arg_value>${encodeMarkerEscapes(typeof value === "string" ? value : pyJson(value))}</arg_value>\n`,
  );
  return `<tool_call>${call.name}\n${args.join("")}</tool_call>`;
}

/**
 * GLM's own writing of the glm45 protocol: the tool section is a system turn of its own before
 * the system text; a turn's text and each call on lines of their own; each result a
 * <tool_response> block, the results of one turn in one <|observation|> turn.
 */
export const glmToolFraming: ToolFraming = {
  protocol: "glm45",
  placement: "system-start",
  toolResultRole: "tool",
  toolSection: (tools) =>
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>\n" +
    tools.map((tool) => `${toolJson(tool)}\n`).join("") +
    "</tools>\n\nFor each function call, output the function name and arguments within the following XML format:\n<tool_call>{function-name}\n<arg_key>{arg-key-1}</arg_key>\n<arg_value>{arg-value-1}</arg_value>\n<arg_key>{arg-key-2}</arg_key>\n" +
    TOOL_SECTION_END,
  renderAssistant: (message) => [message.content.trim(), ...(message.toolCalls ?? []).map(glmCall)].filter((part) => part !== "").join("\n"),
  renderToolResult: (message, escape = (text) => text) => `<tool_response>\n${escape(message.content)}\n</tool_response>`,
};

function glmTemplate(thinking: boolean): ChatTemplate {
  return {
    name: "glm45",
    // generation_config.json's eos_token_id: <|endoftext|>, <|user|>, <|observation|>.
    stop: ["<|endoftext|>", "<|user|>", "<|observation|>"],
  controlTokens,
    toolFraming: glmToolFraming,
    render(messages, { addGenerationPrompt }) {
      let out = "[gMASK]<sop>";
      const lastUser = messages.findLastIndex((m) => m.role === "user");
      messages.forEach((message, i) => {
        if (message.role === "system") {
          // The tool section is a system turn of its own, before the system text (placement "system-start").
          const end = message.content.startsWith("# Tools\n") ? message.content.indexOf(TOOL_SECTION_END) : -1;
          if (end < 0) {
            out += `<|system|>\n${message.content}`;
            return;
          }
          const cut = end + TOOL_SECTION_END.length;
          out += `<|system|>\n${message.content.slice(0, cut)}`;
          const rest = message.content.slice(cut).replace(/^\n\n/, "");
          if (rest !== "") out += `<|system|>\n${rest}`;
        } else if (message.role === "user") {
          out += `<|user|>\n${message.content}${!thinking && !message.content.endsWith("/nothink") ? "/nothink" : ""}`;
        } else if (message.role === "assistant") {
          // Reasoning is written back only after the last user message (the current question's loop).
          const reasoning = i > lastUser ? message.reasoning?.trim() : undefined;
          out += `<|assistant|>\n<think>${reasoning ?? ""}</think>`;
          if (message.content.trim() !== "") out += `\n${message.content.trim()}`;
        } else {
          out += `${messages[i - 1]?.role === "tool" ? "" : "<|observation|>"}\n${message.content}`;
        }
      });
      if (addGenerationPrompt) out += thinking ? "<|assistant|>" : "<|assistant|>\n<think></think>";
      return out;
    },
  };
}

export const glm45: ModelFamily = {
  id: "glm45",
  label: "GLM-4.5 / 4.6",
  templateName: "glm45",
  templateLabel: "GLM-4.5 / 4.6 (<|user|>, think blocks, <arg_key> calls)",
  // GLM-4.5, 4.5-Air, 4.6 (zai-org/… and the older THUDM/… names); not GLM-4.7, whose template writes calls without line breaks.
  serverNames: /glm-?4\.(?:5|6)(?![\d])/i,
  template: ({ enableThinking }) => glmTemplate(enableThinking !== false),
  // enable_thinking; the template's default is on.
  thinking: { defaultOn: true },
  controlTokens,
  protocol: { trained: "glm45", fallback: "xml", why: "GLM-4.5 and 4.6 were trained on <tool_call>NAME<arg_key>…</arg_key><arg_value>…</arg_value>" },
  // zai-org's model cards give no sampling values the lab checked; its defaults, with room for a think block when thinking.
  sampling: (thinking) => ({ ...labDefaults(thinking ? "GLM-4.5 / 4.6, thinking on" : "GLM-4.5 / 4.6, thinking off"), ...(thinking ? { maxTokens: THINKING_MAX_TOKENS } : {}) }),
  kvState: "kv_cache",
  contextNotes: "GLM-4.5: 131,072 tokens; GLM-4.6: 202,752.",
};


// GLM-4.7 (and 4.7-Flash): the same turns and protocol written without line breaks: `<|user|>text`,
// `<|assistant|></think>` before a reply without reasoning, calls `<tool_call>NAME<arg_key>k</arg_key>…`
// right after the text, results `<tool_response>…</tool_response>`, and a generation prompt that
// opens (`<think>`) or closes (`</think>`) the think block. zai-org's GLM-4.7 template is not
// among the fixtures: this follows the form of Ollama's GLM-4.7 renderer and its test cases (see
// parity-glm45.test.ts). The reasoning of earlier questions is cleared, as GLM-4.5/4.6 do and as
// the template's clear_thinking switch does (Ollama describes it; it keeps that reasoning itself,
// as clear_thinking=false does); that the template clears by default is not checked here.
const TOOL_SECTION_END_47 = "<arg_value>{arg-value-2}</arg_value>...</tool_call>";

function glm47Call(call: ToolCall): string {
  const args = Object.entries(call.arguments).map(([key, value]) => `<arg_key>${encodeMarkerEscapes(key)}</arg_key><arg_value>${encodeMarkerEscapes(typeof value === "string" ? value : pyJson(value))}</arg_value>`);
  return `<tool_call>${call.name}${args.join("")}</tool_call>`;
}

export const glm47ToolFraming: ToolFraming = {
  protocol: "glm45",
  placement: "system-start",
  toolResultRole: "tool",
  toolSection: (tools) =>
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>\n" +
    tools.map((tool) => `${toolJson(tool)}\n`).join("") +
    "</tools>\n\nFor each function call, output the function name and arguments within the following XML format:\n<tool_call>{function-name}<arg_key>{arg-key-1}</arg_key><arg_value>{arg-value-1}</arg_value><arg_key>{arg-key-2}</arg_key>" +
    TOOL_SECTION_END_47,
  renderAssistant: (message) => message.content.trim() + (message.toolCalls ?? []).map(glm47Call).join(""),
  renderToolResult: (message, escape = (text) => text) => `<tool_response>${escape(message.content)}</tool_response>`,
};

function glm47Template(thinking: boolean): ChatTemplate {
  return {
    name: "glm47",
    stop: ["<|endoftext|>", "<|user|>", "<|observation|>"],
  controlTokens,
    toolFraming: glm47ToolFraming,
    render(messages, { addGenerationPrompt }) {
      let out = "[gMASK]<sop>";
      const lastUser = messages.findLastIndex((m) => m.role === "user");
      messages.forEach((message, i) => {
        if (message.role === "system") {
          const end = message.content.startsWith("# Tools\n") ? message.content.indexOf(TOOL_SECTION_END_47) : -1;
          if (end < 0) {
            out += `<|system|>${message.content}`;
            return;
          }
          const cut = end + TOOL_SECTION_END_47.length;
          // The tool section's turn keeps its line break after <|system|>; the system text's does not.
          out += `<|system|>\n${message.content.slice(0, cut)}`;
          const rest = message.content.slice(cut).replace(/^\n\n/, "");
          if (rest !== "") out += `<|system|>${rest}`;
        } else if (message.role === "user") {
          out += `<|user|>${message.content}`;
        } else if (message.role === "assistant") {
          const reasoning = i > lastUser ? message.reasoning : undefined;
          out += `<|assistant|>${reasoning ? `<think>${reasoning}</think>` : "</think>"}${message.content}`;
        } else {
          out += `${messages[i - 1]?.role === "tool" ? "" : "<|observation|>"}${message.content}`;
        }
      });
      if (addGenerationPrompt) out += thinking ? "<|assistant|><think>" : "<|assistant|></think>";
      return out;
    },
  };
}

export const glm47: ModelFamily = {
  id: "glm47",
  label: "GLM-4.7",
  templateName: "glm47",
  templateLabel: "GLM-4.7 (<|user|>, think blocks, <arg_key> calls without line breaks)",
  serverNames: /glm-?4\.7(?![\d])/i,
  template: ({ enableThinking }) => glm47Template(enableThinking !== false),
  // enable_thinking; the template's default is on.
  thinking: { defaultOn: true },
  controlTokens,
  protocol: { trained: "glm45", fallback: "xml", why: "GLM-4.7 was trained on <tool_call>NAME<arg_key>…</arg_key><arg_value>…</arg_value> (written without line breaks)" },
  sampling: (thinking) => ({ ...labDefaults(thinking ? "GLM-4.7, thinking on" : "GLM-4.7, thinking off"), ...(thinking ? { maxTokens: THINKING_MAX_TOKENS } : {}) }),
  kvState: "kv_cache",
  contextNotes: "GLM-4.7: 202,752 tokens (not checked on its config here).",
};
