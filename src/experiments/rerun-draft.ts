// The inputs of a step as "Edit and re-run" offers them for editing: the exact prompt, or its
// parts (the user's system prompt, each tool's description and schema, each message), plus the
// protocol, sampling and seed, and the constraint. Pure: what was changed is listed in words,
// and the parts render through renderPrompt, as the loop renders every prompt.
import { settleRender } from "toolcall-middleware/templates/render-pending.ts";
import { renderPrompt } from "toolcall-middleware/loop/render-conversation.ts";
import { nestedDeeperThan } from "toolcall-middleware/parser/settle-call.ts";
import { MAX_TOOL_DEFINITION_DEPTH } from "toolcall-middleware/tools/formats/index.ts";
import type { ChatMessage, ChatTemplate, GenerationSettings, Protocol, TemplateMessage, ToolSpec } from "toolcall-middleware/types.ts";

export interface RerunParts {
  systemPrompt: string;
  tools: { name: string; description: string; schema: string }[];
  messages: ChatMessage[];
}

export interface StepInputs {
  prompt: string;
  templateMessages: readonly TemplateMessage[];
  messages: readonly ChatMessage[];
  protocol: string;
  settings: GenerationSettings;
  constrained: boolean;
}

/** The user's system prompt of a recorded step: its system turn without the run's tool section. */
export function userSystemPrompt(templateMessages: readonly TemplateMessage[], toolSection: string | undefined): string {
  const system = templateMessages[0]?.role === "system" ? templateMessages[0].content : "";
  const section = toolSection?.trim();
  if (section && system.endsWith(section)) return system.slice(0, system.length - section.length).trimEnd();
  return system;
}

export function partsOf(inputs: StepInputs, tools: readonly ToolSpec[], toolSection: string | undefined): RerunParts {
  return {
    systemPrompt: userSystemPrompt(inputs.templateMessages, toolSection),
    tools: tools.map((tool) => ({ name: tool.name, description: tool.description, schema: JSON.stringify(tool.parameters, null, 2) })),
    messages: inputs.messages.map((message) => ({ ...message })),
  };
}

/**
 * The parts with one message's text edited. An assistant message drops what it was recorded as
 * (`rawOutput`, which the template writes in place of its text): kept, the prompt and the branch
 * would still say the original words while the panel lists the message as changed.
 */
export function withMessageEdited(parts: RerunParts, index: number, content: string): RerunParts {
  const messages = parts.messages.map((message, i) => {
    if (i !== index) return message;
    if (message.role !== "assistant") return { ...message, content };
    const { rawOutput: _recorded, ...rest } = message;
    return { ...rest, content };
  });
  return { ...parts, messages };
}

/** The edited tools as specs; a schema that is not a JSON object is named. */
export function toolsOf(parts: RerunParts): { tools: ToolSpec[] } | { error: string } {
  const tools: ToolSpec[] = [];
  for (const tool of parts.tools) {
    let parameters: unknown;
    try {
      parameters = JSON.parse(tool.schema);
    } catch (error) {
      return { error: `The schema of ${tool.name} is not JSON: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (!parameters || typeof parameters !== "object" || Array.isArray(parameters)) return { error: `The schema of ${tool.name} must be a JSON object.` };
    if (nestedDeeperThan(parameters, MAX_TOOL_DEFINITION_DEPTH)) return { error: `The schema of ${tool.name} is nested more than ${MAX_TOOL_DEFINITION_DEPTH} levels deep.` };
    tools.push({ name: tool.name, description: tool.description, parameters: parameters as Record<string, unknown> });
  }
  return { tools };
}

/** The prompt the edited parts make, rendered as the loop renders a step (awaited: a GGUF's own template renders in a worker). */
export function renderParts(parts: RerunParts, tools: ToolSpec[], protocol: Protocol, template: ChatTemplate): Promise<{ prompt: string; templateMessages: TemplateMessage[] }> {
  return settleRender(() => renderPrompt({ systemPrompt: parts.systemPrompt, tools, protocol, messages: parts.messages, template }));
}

export interface Edited {
  prompt: string;
  promptEditedDirectly: boolean;
  parts: RerunParts;
  protocol: string;
  settings: GenerationSettings;
  constrained: boolean;
  /** Replay: the output to use; null when generating. */
  output: string | null;
}

const SAMPLING: [keyof GenerationSettings, string][] = [
  ["temperature", "temperature"],
  ["topP", "top_p"],
  ["seed", "seed"],
  ["maxTokens", "max tokens"],
];

/** What differs from the recorded step, in words (empty: an unchanged re-run). */
export function describeChanges(original: StepInputs, originalParts: RerunParts, recordedOutput: string, edited: Edited): string[] {
  const changes: string[] = [];
  if (edited.promptEditedDirectly) changes.push("prompt text edited");
  if (edited.parts.systemPrompt !== originalParts.systemPrompt) changes.push("system prompt");
  for (const [i, tool] of edited.parts.tools.entries()) {
    const before = originalParts.tools[i];
    if (!before) continue;
    if (tool.description !== before.description) changes.push(`tool ${tool.name}: description`);
    if (tool.schema !== before.schema) changes.push(`tool ${tool.name}: schema`);
  }
  for (const [i, message] of edited.parts.messages.entries()) {
    if (message.content !== originalParts.messages[i]?.content) changes.push(`message ${i + 1} (${message.role})`);
  }
  if (edited.protocol !== original.protocol) changes.push(`protocol ${original.protocol} → ${edited.protocol}`);
  for (const [key, label] of SAMPLING) {
    if (edited.settings[key] !== original.settings[key]) changes.push(`${label} ${String(original.settings[key] ?? "default")} → ${String(edited.settings[key] ?? "default")}`);
  }
  if (edited.constrained !== original.constrained) changes.push(edited.constrained ? "constrained on" : "constrained off");
  if (edited.output !== null && edited.output !== recordedOutput) changes.push("output edited");
  return changes;
}
